"""sudolab's exceptions: each is a ``sudolab.Error`` and the built-in it refines."""


class Error(Exception):
    """Every error sudolab raises on purpose."""


class ParseError(Error, ValueError):
    """A puzzle that cannot be read; the message names its place (``puzzles[3]: line 1,
    column 7: ...`` or ``FILE: line 3, column 7: ...``), as the command line does."""


class OptionError(Error, ValueError):
    """A bad option: an unknown strategy, a limit or duration out of range."""


class InputError(Error, OSError):
    """A file that cannot be opened or read."""


class ExperimentError(Error, ValueError):
    """An experiment file that cannot be used; the message names the file and line."""
