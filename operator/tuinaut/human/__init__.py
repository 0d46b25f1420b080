"""The human harness: a person takes the agent's seat at a real terminal (``tuinaut human``).

Layers, lowest first: ``decode`` (bytes -> key names, via prompt_toolkit's VT100 parser),
``terminal`` (the person's TTY), ``viewer`` (a read-only tmux client showing the live pane),
``seat`` (the small glue that lets the engine forward unknown keys), ``order`` (seeded session
order), ``session`` (tasks one after another, resumable). The actor itself is
``tuinaut.actors.human``.
"""
