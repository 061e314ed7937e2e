"""A command line whose subcommand is optional: `snapsolve photo.jpg` and `snapsolve serve`.

A click group wants a subcommand's name first. This one hands every command line whose
first word is not a subcommand's name to the default command, so photos and options come
first as they always have, and the default command speaks as the program itself in its
usage lines; `snapsolve --help` shows its help followed by the list of the other
commands. (A photo named like a subcommand is given as ./serve.)
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

from ._quick_params import quicken

__all__ = ["DefaultCommandGroup"]


class _AsProgram(typer.Context):
    """The default command's context: its usage lines name the program alone."""

    @property
    def command_path(self) -> str:
        return self.parent.command_path if self.parent is not None else super().command_path


class DefaultCommandGroup(TyperGroup):
    """A typer group that runs `default_command` unless the first word names another."""

    default_command = "photos"

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            quicken(command.get_params(ctx))
        if command is not None and cmd_name == self.default_command:
            command.context_class = _AsProgram
        return command

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ctx.help_option_names):
            args = [self.default_command, *args]
        quicken(self.get_params(ctx))
        return super().parse_args(ctx, args)

    def format_help(self, ctx: typer.Context, formatter: Any) -> None:
        default = self.get_command(ctx, self.default_command)
        assert default is not None
        with default.make_context(ctx.info_name, [], parent=ctx, resilient_parsing=True) as inner:
            default.format_help(inner, formatter)
        self.format_commands(ctx, formatter)
