"""The ``gammoncam`` command group and its one error type; commands live in ``cmd_*`` modules.

Exit 0 on success; on bad input exit 2 with one clear line on stderr, never a traceback
(``check`` exits 1 when it found problems in a readable file).
"""

from __future__ import annotations

import click


class BadInput(click.ClickException):
    """Bad input from the user: one line on stderr and exit 2."""

    exit_code = 2

    def show(self, file=None) -> None:  # noqa: ANN001 - click's signature
        click.echo(f"gammoncam: {self.format_message()}", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gammoncam")
def main() -> None:
    """gammoncam: camera referee, scorekeeper and recorder for over-the-board backgammon."""
