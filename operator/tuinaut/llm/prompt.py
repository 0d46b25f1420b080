"""What the model is told: the action protocol, the key vocabulary and how screens are shown.

The prompt is deliberately minimal (the method's keyboard agent): it explains the seat the model
sits in and the four actions, and says nothing about any particular TUI. The task text follows in
the first user message, separately, so the protocol part is identical for every task (and cacheable
by providers that cache prompt prefixes).
"""

from __future__ import annotations

from ..terminal.keys import FUNCTION_KEYS

_NAMED = ("enter tab shift+tab escape backspace delete insert up down left right home end page_up page_down "
          f"{FUNCTION_KEYS[0]}..{FUNCTION_KEYS[-1]}")

_PROTOCOL = f"""\
You are a user sitting at a terminal. A text-based application (a TUI) is running in it, and you \
have a task to do with it. You work only through the keyboard: each turn you see the current \
screen and reply with exactly one action. You cannot see files, source code or processes, only \
the screen.

Reply with one JSON object and nothing else (no prose, no list of actions). The four actions:
  {{"action": "type", "text": "hello world"}}   type printable text, character by character
  {{"action": "press", "key": "enter"}}          press one key or key combination
  {{"action": "wait", "ms": 1000}}               send nothing, look again after ms milliseconds (0-60000)
  {{"action": "submit"}}                         declare the task finished (nothing is sent to the TUI)

Key names for press:
  one printable character: a, Z, 5, /, : (an uppercase letter is just that character)
  named keys: {_NAMED}
  combinations: ctrl+<key>, alt+<key> (e.g. ctrl+s, alt+x, ctrl+left), shift+<navigation key> (e.g. shift+up)
type accepts printable characters only; use press for enter, tab and every other special key.

Submit once the task is done; the result is checked after you submit, and then you can no longer act. \
If a reply is not a valid action, nothing is sent, you are told why, and the turn still counts."""

_SCREEN_MODES = {
    "plain": "Each turn shows the screen as text, row by row, with the cursor position on its own line.",
    "semantic": (
        "Each turn shows the screen as text, row by row, with the cursor position on its own line. "
        "Styling is marked with tags around the styled text: <fg:COLOUR> text colour, <bg:COLOUR> background, "
        "<bold>, <reverse> (swapped colours, often a selection or cursor bar) and <underline>; each tag is "
        "closed (</fg>, </bg>, </bold>, ...) where the styling ends, and an inner colour tag wins over an outer "
        "one. Untagged text has the terminal's default style, or, when the first line reads 'screen default: "
        "...', the style that line declares (that line is not a screen row). COLOUR is one of "
        "black red green yellow blue magenta cyan white, bright_ versions of these, color_N (256-colour palette) "
        "or #rrggbb. A literal '<' on screen that would look like a tag is written &lt;."),
    "image": ("Each turn shows a screenshot of the terminal (light text on a black background by default), "
              "with the cursor position given in text."),
}


def system_prompt(observation: str) -> str:
    """The system message for an observation mode."""
    return f"{_PROTOCOL}\n\n{_SCREEN_MODES[observation]}"


def task_message(description: str) -> str:
    """The first user message: the task, exactly as the task package states it."""
    return f"Your task:\n{description.strip()}"
