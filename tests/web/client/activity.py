"""Stand-in for Discord's client around an Activity: a parent page that embeds the live page
in an iframe, as Discord does, and answers the Embedded App SDK's postMessage RPC.

It speaks the SDK 2.5.0 protocol: the iframe sends ``[0, handshake]`` (opcode HANDSHAKE) and
gets the ``READY`` dispatch; commands come as ``[1, {cmd, args, nonce}]`` (FRAME) and are
answered with a frame of the same ``cmd`` and ``nonce``: ``AUTHORIZE`` with the OAuth2 code
the test chose, ``AUTHENTICATE`` with the user the test stands for, anything else with
``null``. Every message is logged in ``window.rpcLog`` for the test to read.
"""

from __future__ import annotations

import json

PARENT = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord (test)</title>
<style>html,body{margin:0;height:100%} iframe{border:0;width:100%;height:100%}</style>
</head><body>
<iframe id="activity" src="__SRC__"></iframe>
<script>
const config = __CONFIG__;
window.rpcLog = [];
const frame = document.getElementById("activity");
function send(payload) { frame.contentWindow.postMessage([1, payload], "*"); }
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, data] = event.data;
  window.rpcLog.push({ opcode, cmd: data && data.cmd, args: data && data.args,
                       client_id: data && data.client_id, frame_id: data && data.frame_id });
  if (opcode === 0) {
    send({ cmd: "DISPATCH", evt: "READY", nonce: null, data: {
      v: 1,
      config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api",
                environment: "production" },
      user: { id: config.user_id, username: config.username, discriminator: "0" } } });
  } else if (opcode === 1 && data.cmd === "AUTHORIZE") {
    send({ cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: { code: config.code } });
  } else if (opcode === 1 && data.cmd === "AUTHENTICATE") {
    send({ cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {
      access_token: data.args.access_token,
      user: { id: config.user_id, username: config.username, discriminator: "0", public_flags: 0 },
      scopes: ["identify"], expires: "2099-01-01T00:00:00.000Z",
      application: { id: config.client_id, name: "Poeppel", description: "" } } });
  } else if (opcode === 1) {
    send({ cmd: data.cmd, evt: null, nonce: data.nonce, data: null });
  }
});
</script></body></html>
"""


def parent_page(src: str, *, code: str, user_id: str, username: str, client_id: str) -> str:
    """The parent page embedding ``src`` (the Activity's URL with Discord's query)."""
    config = {"code": code, "user_id": user_id, "username": username, "client_id": client_id}
    return PARENT.replace("__SRC__", src).replace("__CONFIG__", json.dumps(config))


def activity_query(channel_id: str = "900000000000000001") -> str:
    """The query Discord adds to an Activity's URL."""
    return (
        "?frame_id=frame-1&instance_id=i-1-abc&platform=desktop"
        f"&guild_id=800000000000000001&channel_id={channel_id}&location_id=loc-1"
    )
