"""``python -m carddb …``: the same command line as the ``carddb`` script."""

from carddb.cli import main

if __name__ == "__main__":
    main()
