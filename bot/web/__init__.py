"""The live board (#33): a web page of every table and the Discord Activity, served by the
bot process beside the Discord front end (:mod:`bot.web.server`; protocol in docs/live.md).

A front end like :mod:`bot.discord_ui` and :mod:`bot.console`: it reaches tables only through
:class:`bot.service.TableService`. The browser code is under ``static/`` (plain ES modules).
"""
