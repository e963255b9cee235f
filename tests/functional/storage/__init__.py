"""Storage tests; ``drivers()`` builds the driver pair they use."""

from zaqar.common import cache as zaqar_cache


def drivers(conf, control_class, data_class):
    """A (control driver, data driver) pair configured by ``conf``."""
    zaqar_cache.register_config(conf)
    cache = zaqar_cache.get_cache(conf)
    control = control_class(conf, cache)
    return control, data_class(conf, cache, control)
