"""Projects with dots in their ids keep apart on ``mongodb.delay``
(``tests.common.project_pairs``)."""

from tests.common import project_pairs
from tests.fixtures import mongodb_store


class ProjectPairsTest(project_pairs.ProjectPairs,
                       mongodb_store.DelayTestBase):
    pass
