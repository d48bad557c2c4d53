"""The Discord front end of Pöppel (named ``discord_ui`` so it never shadows ``discord``).

A thin layer: it turns interactions into :class:`bot.service.TableService` calls and the
service's :class:`bot.model.effects.Effects` into messages. The service decides everything.

Modules:

* :mod:`~bot.discord_ui.app` — ``run_bot``, ``sync_commands``, ``create_bot`` (which registers
  the slash commands), ``open_service``.
* :mod:`~bot.discord_ui.client` — the ``commands.Bot`` / ``AutoShardedBot`` subclasses.
* :mod:`~bot.discord_ui.commands` — ``/tock new``, ``/dog new``, ``/carcassonne new``,
  ``/table join|leave|start|abandon|kick|status|board|log``, ``/rules``;
  :mod:`~bot.discord_ui.after_commands` — ``/stats``, ``/leaderboard``, ``/history``,
  ``/table replay``.
* :mod:`~bot.discord_ui.components` — the one persistent ``DynamicItem`` (``TableControl``);
  :mod:`~bot.discord_ui.custom_ids` — the ``t:<table>:v:<version>:<action>[:args]`` format.
* :mod:`~bot.discord_ui.frontdesk` — commands and clicks -> service calls; refusals answered
  privately. :mod:`~bot.discord_ui.publisher` — lobby and board messages in the thread.
* :mod:`~bot.discord_ui.desk_port` — the protocols (``PlayDesk``, ``CommandDesk``) through
  which the handlers and commands see the desk, so none imports ``FrontDesk`` back.
* :mod:`~bot.discord_ui.race_prompts`, :mod:`~bot.discord_ui.tile_prompts` — the private
  prompts (hand, card moves, split 7, joker, exchange; tile cell, rotation, figure);
  :mod:`~bot.discord_ui.tile_words` — Carcassonne placements and figure spots in words and
  the board's placement selects. :mod:`~bot.discord_ui.after_game`,
  :mod:`~bot.discord_ui.replay_viewer` — results posts, statistics pages, the replay viewer.
* :mod:`~bot.discord_ui.rendering` — renderer calls in a worker thread;
  :mod:`~bot.discord_ui.texts` — moves and tables in words.

Interaction rules kept everywhere: acknowledge first (an *ephemeral* deferral for clicks on
public messages, a deferred update for clicks in a private prompt), render off the event loop,
post a new message per move (only the newest of one delivery carries the board image and
the controls; the moves before it are told in words), never answer a private thing through
a public deferral.
"""
