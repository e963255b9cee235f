"""What of upstream Zaqar's WSGI transport ``wsgi.delay`` relies on
beyond its public classes, in one place; checked against the Zaqar
releases in ``zaqar_delay.version`` (``tests/unit/transport``).

- ``zaqar.transport.acl.ENFORCER``: the policy enforcer the WSGI driver
  makes when it installs its middleware, which this transport's rules
  are added to;
- the WSGI driver's private settings its v2 resources are built with
  (its storage, options, validator, defaults and encryptor factory);
- the private controller attributes of upstream's v2 resources, which a
  copy of a resource, made for one request, replaces (``dues``).
"""

from zaqar.transport import acl

from zaqar_delay import errors

# The WSGI driver's attributes its v2 resources are built from.
DRIVER_SETTINGS = ('_storage', '_wsgi_conf', '_validate', '_defaults',
                   '_encryptor_factory')
# Attributes of upstream's v2 message and claim resources.
MESSAGE_CONTROLLER = '_message_controller'
CLAIM_CONTROLLER = '_claim_controller'


def enforcer():
    """Zaqar's policy enforcer (None before the WSGI driver made it)."""
    return acl.ENFORCER


def settings(driver):
    """{name: value} of the WSGI driver's ``DRIVER_SETTINGS``."""
    found = {}
    for name in DRIVER_SETTINGS:
        try:
            found[name] = getattr(driver, name)
        except AttributeError as exc:
            raise errors.UpstreamChanged(
                'zaqar\'s WSGI driver has no %s, which wsgi.delay uses'
                % name) from exc
    return found
