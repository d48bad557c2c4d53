"""``/tournament``: sign-up, the host's controls, standings; and the posts rounds make.

Thin, like the rest of the front end: the rules and every refusal are the service's
(:mod:`bot.service.tournaments`). This module turns commands and clicks into its calls, posts
the sign-up (with *Join* / *Leave*), opens a thread for every table a round opens and tells
the channel who sits where, and posts the final standings image and the champion.

The sign-up buttons carry ordinary control ids (``t:<tournament>:v:0:tnjoin``); the front
desk hands their clicks to :func:`on_click`.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import Any, cast

import discord
from discord import app_commands

from bot.discord_ui.custom_ids import ControlId
from bot.discord_ui.desk_port import desk_of
from bot.discord_ui.replies import reply_private
from bot.discord_ui.texts import display_name
from bot.discord_ui.translator import guild_locale_of, locale_of
from bot.model.table import TableError
from bot.service import RoundOpened, TournamentError
from bot.tournament import Format, champion, standings, total_rounds
from bot.tournament.record import TournamentPhase, TournamentRecord
from i18n import t, tn
from i18n.message import list_words as join_list
from i18n.words import duration_text

log = logging.getLogger(__name__)

#: Discord's code for a message that already has its thread (another process opened it).
THREAD_ALREADY_CREATED = 160004

#: The control actions of a sign-up post.
JOIN, LEAVE = "tnjoin", "tnleave"
TOURNAMENT_ACTIONS = frozenset({JOIN, LEAVE})

GAME_CHOICES = [
    app_commands.Choice(name=name.capitalize(), value=name)
    for name in ("tock", "dog", "carcassonne")
]
FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="Knockout", value="knockout"),
    app_commands.Choice(name="Round robin", value="round_robin"),
]
CLOCK_CHOICES = [
    app_commands.Choice(name="1 minute", value=60),
    app_commands.Choice(name="2 minutes", value=120),
    app_commands.Choice(name="5 minutes", value=300),
    app_commands.Choice(name="10 minutes", value=600),
    app_commands.Choice(name="1 hour", value=3600),
    app_commands.Choice(name="1 day", value=86400),
]
HOST_ACTIONS = ("close", "start", "pause", "resume", "remove", "cancel")


def parse_options(text: str | None) -> dict[str, Any]:
    """``river=true seven=single`` as engine options (true/false and numbers read as such)."""
    found: dict[str, Any] = {}
    for part in (text or "").split():
        key, _, value = part.partition("=")
        lowered = value.lower()
        if lowered in ("true", "false"):
            found[key] = lowered == "true"
        elif value.isdigit():
            found[key] = int(value)
        else:
            found[key] = value
    return found


class TournamentDesk:
    """The tournaments' side of the front desk: their posts, and the listener the service
    tells when a round opens or the tournament ends."""

    def __init__(self, desk: Any) -> None:
        self.desk = desk
        self._waiting: asyncio.Task[None] | None = None

    @property
    def service(self) -> Any:
        """The tournaments part of the table service."""
        return self.desk.service.tournaments

    # --- posts -----------------------------------------------------------------------------

    def signup_text(self, record: TournamentRecord, locale: str) -> str:
        """The sign-up post: what is played, how, who signed up, and where it stands."""
        setup = record.setup
        settings = record.state.settings
        game = t(f"game.{record.game}", locale)
        lines = [
            t(
                "tournament.signup.title",
                locale,
                game=game,
                id=record.id,
                format=t(f"tournament.format.{settings.format}", locale),
                host=f"<@{record.host_id}>",
            )
        ]
        facts = [tn("tournament.signup.seats", int(setup.get("players", 2)), locale)]
        if settings.format == Format.SWISS:
            facts.append(tn("tournament.signup.rounds", settings.rounds, locale))
        facts.append(
            t(
                "tournament.signup.clock",
                locale,
                time=duration_text(int(setup["turn_time"]), locale),
            )
        )
        lines.append(" · ".join(facts))
        lines.append(
            t(
                "tournament.signup.bots" if setup.get("bots") else "tournament.signup.no_bots",
                locale,
            )
        )
        start_at = setup.get("start_at")
        if start_at is not None:
            lines.append(t("tournament.signup.starts", locale, time=f"<t:{int(start_at)}:R>"))
        else:
            lines.append(t("tournament.signup.manual", locale))
        names = [e.name for e in record.state.entrants]
        if names:
            lines.append(
                tn("tournament.signup.entrants", len(names), locale, names=join_list(names, locale))
            )
        else:
            lines.append(t("tournament.signup.nobody", locale))
        singles = [str(s["name"]) for s in setup.get("singles", [])]
        if singles:
            lines.append(t("tournament.signup.singles", locale, names=join_list(singles, locale)))
        if int(setup.get("team_size", 1)) > 1 and record.phase == TournamentPhase.SIGNUP:
            lines.append(t("tournament.signup.pair_hint", locale))
        lines.append(t(f"tournament.phase.{record.phase}", locale))
        return "\n".join(lines)

    def signup_view(self, record: TournamentRecord, locale: str) -> discord.ui.View | None:
        """Join and Leave, while the sign-up is open."""
        if record.phase != TournamentPhase.SIGNUP:
            return None
        view = discord.ui.View(timeout=None)
        for action, key, style in (
            (JOIN, "tournament.button.join", discord.ButtonStyle.success),
            (LEAVE, "tournament.button.leave", discord.ButtonStyle.secondary),
        ):
            view.add_item(
                discord.ui.Button(
                    label=t(key, locale),
                    style=style,
                    custom_id=str(ControlId(record.id, 0, action)),
                )
            )
        return view

    async def refresh_post(self, record: TournamentRecord, locale: str) -> None:
        """Edit the sign-up post to what the tournament is now."""
        message_id = record.setup.get("post_id")
        channel = await self._channel(record.channel_id)
        if message_id is None or channel is None:
            return
        try:
            message = channel.get_partial_message(int(message_id))
            await message.edit(
                content=self.signup_text(record, locale),
                view=self.signup_view(record, locale),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            log.warning("could not edit the sign-up post of tournament %s: %s", record.id, error)

    async def standings_png(self, record: TournamentRecord, locale: str) -> bytes:
        """The standings image of ``record`` in ``locale``."""
        from renderer.standings import render_standings

        state = record.state
        played = len(state.rounds)
        if record.phase == TournamentPhase.FINISHED:
            subtitle = t("tournament.standings.final", locale)
        elif played:
            done = played if state.rounds[-1].finished else played - 1
            subtitle = t(
                "tournament.standings.after", locale, round=done, rounds=total_rounds(state)
            )
        else:
            subtitle = t("tournament.standings.before", locale)
        title = t(
            "tournament.standings.title",
            locale,
            game=t(f"game.{record.game}", locale),
            id=record.id,
        )
        rows = [
            {
                "rank": s.rank,
                "name": s.name,
                "points": s.points,
                "buchholz": s.buchholz,
                "score": s.score,
                "played": s.played,
            }
            for s in standings(state)
        ]
        return await asyncio.to_thread(
            render_standings,
            rows,
            title=title,
            subtitle=subtitle,
            buchholz=state.settings.format == Format.SWISS,
            locale=locale,
        )

    def standings_text(self, record: TournamentRecord, locale: str) -> str:
        """The standings as lines (beside the image, for screen readers and search)."""
        return "\n".join(
            tn("tournament.standings.line", s.points, locale, rank=s.rank, name=s.name)
            for s in standings(record.state)
        )

    async def _channel(self, channel_id: int) -> Any:
        bot = self.desk.bot
        if bot is None:
            return None
        channel = bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await bot.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return channel

    # --- the service's listener ------------------------------------------------------------

    def _ready(self) -> bool:
        bot = self.desk.bot
        return bot is not None and bot.is_ready()

    def _later(self) -> None:
        """Before the bot is connected nothing can be posted: once it is, the service tells
        again about every table that still has no thread."""
        if self._waiting is None or self._waiting.done():
            self._waiting = asyncio.create_task(self._when_ready())

    async def _when_ready(self) -> None:
        for _ in range(12_000):  # the bot attaches to the desk in its setup hook
            if self.desk.bot is not None:
                break
            await asyncio.sleep(0.05)
        else:
            return
        await self.desk.bot.wait_until_ready()
        try:
            await self.service.recover()
        except Exception:
            log.exception("catching up the tournaments failed")

    async def round_opened(self, opened: RoundOpened) -> None:
        """Open a thread for every new table, deliver its start there, and tell the channel
        who sits where (the players are pinged) — in the background: the round is stored,
        and the host's start (or the move that ended the round) is answered without waiting
        for these posts."""
        if not self._ready():
            self._later()
            return
        name = f"posting round {opened.number} of tournament {opened.tournament.id}"
        self.desk.run_soon(lambda: self._post_round(opened), name)

    async def _post_round(self, opened: RoundOpened) -> None:
        record = opened.tournament
        channel = await self._channel(record.channel_id)
        if channel is None:
            return
        locale = guild_locale_of(channel.guild)
        names = {e.key: e.name for e in record.state.entrants}
        lines = [
            t(
                "tournament.round.title",
                locale,
                round=opened.number,
                game=t(f"game.{record.game}", locale),
                id=record.id,
            )
        ]
        pings: list[int] = []
        for number, table in enumerate(opened.tables, start=1):
            slot = int(table.record.extra.get("tournament_slot", number - 1)) + 1
            who = join_list([names.get(k, k) for k in table.entrants], locale)
            thread = await self._open_thread(
                channel, record, opened.number, slot, who, locale, table.record.id
            )
            if thread is None:
                continue
            stored = await self.desk.service.set_thread(table.record.id, thread.id)
            self.desk.remember(stored)
            if table.effects is not None:
                table.effects.table = stored
                await self.desk.deliver(table.effects)
            else:
                await self.desk.publisher.ensure_board(stored.id)
            lines.append(
                t(
                    "tournament.round.table",
                    locale,
                    number=slot,
                    names=who,
                    thread=f"<#{thread.id}>",
                )
            )
            pings.extend(s.user_id for s in stored.seats if s.user_id is not None)
        if opened.byes:
            byes = join_list([names.get(k, k) for k in opened.byes], locale)
            lines.append(t("tournament.round.bye", locale, names=byes))
        mentions = " ".join(f"<@{user}>" for user in dict.fromkeys(pings))
        # Two processes of one shard may both post a round (a rolling restart): the round's
        # nonce makes Discord keep one message of the two.
        await channel.send(
            "\n".join([*lines, mentions]) if mentions else "\n".join(lines),
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            nonce=f"r{record.id}.{opened.number}",
        )

    async def _open_thread(
        self,
        channel: Any,
        record: TournamentRecord,
        round_number: int,
        slot: int,
        who: str,
        locale: str,
        table_id: int,
    ) -> Any:
        title = t("tournament.round.thread", locale, id=record.id, round=round_number, number=slot)
        try:
            # The table's nonce: a second process opening the same round gets the same starter
            # message from Discord, and its thread (a thread started from a message has the
            # message's id) rather than a second one.
            message = await channel.send(
                t("tournament.round.table", locale, number=slot, names=who, thread="🧵"),
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=f"t{table_id}",
            )
            known = channel.guild.get_thread(message.id)  # its THREAD_CREATE reached us too
            if known is not None:
                return known
            try:
                return await message.create_thread(name=title[:100], auto_archive_duration=1440)
            except discord.HTTPException as error:
                if error.code != THREAD_ALREADY_CREATED:
                    raise
                return channel.guild.get_thread(message.id) or discord.Object(message.id)
        except discord.HTTPException as error:
            log.warning("could not open a thread of tournament %s: %s", record.id, error)
            return None

    async def tournament_finished(self, tournament: TournamentRecord) -> None:
        """Post the final standings image and the champion (in the background, as
        :meth:`round_opened`)."""
        if not self._ready():
            return
        name = f"posting the end of tournament {tournament.id}"
        self.desk.run_soon(lambda: self._post_finished(tournament), name)

    async def _post_finished(self, tournament: TournamentRecord) -> None:
        channel = await self._channel(tournament.channel_id)
        if channel is None:
            return
        locale = guild_locale_of(channel.guild)
        game = t(f"game.{tournament.game}", locale)
        winner = champion(tournament.state)
        if winner is not None:
            text = t(
                "tournament.finished",
                locale,
                game=game,
                id=tournament.id,
                name=tournament.state.entrant(winner).name,
            )
        else:
            top = [s.name for s in standings(tournament.state) if s.rank == 1]
            text = t(
                "tournament.finished_tie",
                locale,
                game=game,
                id=tournament.id,
                names=join_list(top, locale),
            )
        png = await self.standings_png(tournament, locale)
        await channel.send(
            text,
            file=discord.File(io.BytesIO(png), filename=f"tournament-{tournament.id}.png"),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.refresh_post(tournament, locale)


def tournament_desk(interaction: discord.Interaction) -> TournamentDesk:
    """The tournament desk of the bot that received ``interaction``."""
    return cast("TournamentDesk", desk_of(interaction).tournament_desk)  # type: ignore[attr-defined]


async def on_click(desk: Any, interaction: discord.Interaction, control: ControlId) -> None:
    """Join or Leave on a sign-up post: answered privately, the post brought up to date."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = locale_of(interaction)
    tournaments = desk.service.tournaments
    try:
        record = await tournaments.get(control.table)
        if record.guild_id != interaction.guild_id:
            raise TournamentError("tournament.error.not_found")
        if control.action == JOIN:
            record = await tournaments.join(
                control.table, interaction.user.id, display_name(interaction.user)
            )
            text = t("tournament.joined", locale, id=record.id)
        else:
            record = await tournaments.leave(control.table, interaction.user.id)
            text = t("tournament.left", locale, id=record.id)
    except TableError as error:
        await reply_private(interaction, error.text(locale))
        return
    await reply_private(interaction, text)
    await desk.tournament_desk.refresh_post(record, guild_locale_of(interaction))


# --- the commands --------------------------------------------------------------------------

tournament = app_commands.Group(
    name="tournament", description="Tournaments on this server", guild_only=True
)


async def _resolve(interaction: discord.Interaction, given: int | None) -> TournamentRecord:
    """The tournament a command means: the given one (of this server), else the newest one
    not over in this channel."""
    tournaments = desk_of(interaction).service.tournaments
    if given is not None:
        record: TournamentRecord = await tournaments.get(given)
        if record.guild_id != interaction.guild_id:
            raise TournamentError("tournament.error.not_found")
        return record
    channel = interaction.channel
    channel_id = (
        channel.parent_id if isinstance(channel, discord.Thread) else getattr(channel, "id", 0)
    )
    assert interaction.guild_id is not None
    found = [
        r
        for r in await tournaments.of_guild(interaction.guild_id, active=False)
        if r.channel_id == channel_id
    ]
    active = [r for r in found if r.active]
    if active or found:
        return (active or found)[-1]
    raise TournamentError("tournament.error.none_here")


@tournament.command(name="new", description="Open a tournament's sign-up in this channel")
@app_commands.describe(
    game="which game",
    format="Swiss (fixed rounds), knockout, or round robin",
    seats="seats per table",
    rounds="rounds of a Swiss tournament",
    turn_time="time per turn (a tournament always has a turn clock)",
    bots="let bots fill a seat nobody can (a missing partner)",
    start_in="start by itself in this many minutes (default: the host starts it)",
    options="game options as name=value, separated by spaces",
)
@app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, turn_time=CLOCK_CHOICES)
async def tournament_new(
    interaction: discord.Interaction,
    game: str,
    format: str,
    seats: int = 2,
    rounds: int = 3,
    turn_time: int = 300,
    bots: bool = False,
    start_in: int | None = None,
    options: str | None = None,
) -> None:
    """Create the tournament and post its sign-up."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale, public = locale_of(interaction), guild_locale_of(interaction)
    channel = interaction.channel
    if interaction.guild_id is None or channel is None or isinstance(channel, discord.Thread):
        await reply_private(interaction, t("desk.not_in_thread", locale))
        return
    service = desk_of(interaction).service
    try:
        start_at = None if start_in is None else service.clock.now() + 60 * max(0, start_in)
        record = await service.tournaments.create(
            interaction.guild_id,
            channel.id,
            game,
            interaction.user.id,
            format=format,
            players=seats,
            rounds=rounds,
            options=parse_options(options),
            turn_time=turn_time,
            bots=bots,
            start_at=start_at,
        )
    except TableError as error:
        await reply_private(interaction, error.text(locale))
        return
    # Answers first: the tournament is stored; its sign-up post follows.
    await reply_private(interaction, t("tournament.created", locale, id=record.id))
    tdesk = tournament_desk(interaction)

    async def post_signup() -> None:
        post = await channel.send(  # type: ignore[union-attr]
            tdesk.signup_text(record, public),
            view=tdesk.signup_view(record, public) or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await service.tournaments.set_post(record.id, post.id)

    tdesk.desk.run_soon(post_signup, f"posting the sign-up of tournament {record.id}")


@tournament.command(name="join", description="Sign up, alone or with a partner (team games)")
@app_commands.describe(partner="your partner in a team game", tournament="which tournament")
async def tournament_join(
    interaction: discord.Interaction,
    partner: discord.Member | None = None,
    tournament: int | None = None,
) -> None:
    """Sign up (as a pair, with ``partner``)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = locale_of(interaction)
    service = desk_of(interaction).service.tournaments
    try:
        record = await _resolve(interaction, tournament)
        if partner is not None and int(record.setup.get("team_size", 1)) == 1:
            raise TournamentError("tournament.error.not_team")
        record = await service.join(
            record.id,
            interaction.user.id,
            display_name(interaction.user),
            partner_id=None if partner is None else partner.id,
            partner_name="" if partner is None else display_name(partner),
        )
    except TableError as error:
        await reply_private(interaction, error.text(locale))
        return
    if partner is not None:
        text = t("tournament.joined_pair", locale, partner=display_name(partner), id=record.id)
    else:
        text = t("tournament.joined", locale, id=record.id)
    await reply_private(interaction, text)
    await tournament_desk(interaction).refresh_post(record, guild_locale_of(interaction))


@tournament.command(
    name="host", description="The host: close, start, pause, resume, remove, cancel"
)
@app_commands.describe(action="what to do", member="who to remove", tournament="which tournament")
@app_commands.choices(action=[app_commands.Choice(name=a, value=a) for a in HOST_ACTIONS])
async def tournament_host(
    interaction: discord.Interaction,
    action: str,
    member: discord.Member | None = None,
    tournament: int | None = None,
) -> None:
    """One of the host's controls."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = locale_of(interaction)
    service = desk_of(interaction).service.tournaments
    user = interaction.user.id
    params: dict[str, Any] = {}
    try:
        record = await _resolve(interaction, tournament)
        if action == "close":
            record = await service.close_signup(record.id, user)
        elif action == "start":
            record = await service.begin(record.id, user)
        elif action in ("pause", "resume"):
            record = await service.pause(record.id, user, paused=action == "pause")
        elif action == "remove":
            if member is None:
                raise TournamentError("tournament.error.not_in")
            record = await service.remove(record.id, user, member.id)
            params["name"] = display_name(member)
        elif action == "cancel":
            record = await service.cancel(record.id, user)
        else:
            raise TournamentError()
    except TableError as error:
        await reply_private(interaction, error.text(locale))
        return
    await reply_private(interaction, t(f"tournament.host.{action}", locale, **params))
    await tournament_desk(interaction).refresh_post(record, guild_locale_of(interaction))


@tournament.command(name="standings", description="The standings of a tournament")
@app_commands.describe(tournament="which tournament (default: this channel's)")
async def tournament_standings(
    interaction: discord.Interaction, tournament: int | None = None
) -> None:
    """Answer privately with the standings image and lines, in the reader's language."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = locale_of(interaction)
    try:
        record = await _resolve(interaction, tournament)
    except TableError as error:
        await reply_private(interaction, error.text(locale))
        return
    tdesk = tournament_desk(interaction)
    png = await tdesk.standings_png(record, locale)
    text = tdesk.standings_text(record, locale) or t("tournament.signup.nobody", locale)
    await reply_private(
        interaction,
        text,
        file=discord.File(io.BytesIO(png), filename=f"tournament-{record.id}.png"),
    )


@tournament.command(name="record", description="Download a tournament's record")
@app_commands.describe(tournament="which tournament (default: this channel's)")
async def tournament_record(
    interaction: discord.Interaction, tournament: int | None = None
) -> None:
    """Answer privately with the tournament's record: every table's record and the standings."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = locale_of(interaction)
    try:
        record = await _resolve(interaction, tournament)
        data = await desk_of(interaction).service.tournaments.record_of(record.id)
    except TableError as error:
        await reply_private(interaction, error.text(locale))
        return
    payload = json.dumps(data, ensure_ascii=False, indent=1).encode()
    await reply_private(
        interaction,
        t(
            "tournament.standings.title",
            locale,
            game=t(f"game.{record.game}", locale),
            id=record.id,
        ),
        file=discord.File(io.BytesIO(payload), filename=f"tournament-{record.id}.json"),
    )
