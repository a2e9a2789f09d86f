"""Subcommands of the `parakh` command; each module has add_arguments() and run()."""
