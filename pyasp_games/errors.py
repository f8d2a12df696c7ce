"""The one exception type for bad user input (the CLI prints it as one line, exit 2)."""


class InputError(ValueError):
    """The user's input (a file, an option, a combination of options) is invalid."""
