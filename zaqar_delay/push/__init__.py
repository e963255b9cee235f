"""Pushes to subscribers at the due time: the notifier stage, and the
dispatcher's two passes (``dispatcher``: the pushes a delay driver
keeps pending; ``ticker``: schedules' ticks) that ``runner`` runs.

The name format of a pending push, and whether pushes are on, live in
``zaqar_delay.pending`` (the stores import it, never this package).
"""

from zaqar_delay.pending import enabled  # noqa: F401
from zaqar_delay.pending import name  # noqa: F401
from zaqar_delay.pending import parse  # noqa: F401
from zaqar_delay.pending import Push  # noqa: F401
from zaqar_delay.pending import STAGE  # noqa: F401
