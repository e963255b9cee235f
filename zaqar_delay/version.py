"""Versions: of an installed distribution, and of Zaqar this was checked
against."""

from importlib import metadata

# The Zaqar releases whose private names (see each backend's
# ``upstream`` module) were checked by the unit tests.
CHECKED_ZAQAR = '23.0.0, 23.0.1'


def installed(distribution):
    """The installed version of ``distribution``, or 'unknown'."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return 'unknown'
