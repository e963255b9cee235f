#!/bin/bash
#
# devstack/plugin.sh: install zaqar-delay and name its storage driver in
# Zaqar's zaqar.conf. Runs after Zaqar's own plugin (enable_plugin zaqar
# first), whose settings define ZAQAR_DIR, ZAQAR_CONF and ZAQAR_BIN_DIR.
#
# stack install      install_zaqar_delay
# stack post-config  configure_zaqar_delay (after Zaqar's configure_zaqar)
# stack extra        start_zaqar_delay (the zaqar-delay-dispatcher service)
# unstack            stop_zaqar_delay

# Save trace setting
_XTRACE_ZAQAR_DELAY=$(set +o | grep xtrace)
set +o xtrace

# install_zaqar_delay() - install the package from its checkout
function install_zaqar_delay {
    # Zaqar's plugin installs Zaqar only at post-config: install its
    # checkout first, so that pip takes zaqar-delay's zaqar requirement
    # from there and not from PyPI.
    if [[ -d $ZAQAR_DIR ]]; then
        setup_develop $ZAQAR_DIR
    fi
    setup_develop $ZAQAR_DELAY_DIR
}

# _zaqar_delay_iniset_if_set SECTION OPTION VALUE - set it unless empty
function _zaqar_delay_iniset_if_set {
    if [[ -n "$3" ]]; then
        iniset $ZAQAR_CONF "$1" "$2" "$3"
    fi
}

# configure_zaqar_delay() - name the delay driver and set its options
function configure_zaqar_delay {
    case "$ZAQAR_DELAY_BACKEND" in
        redis|mongodb|swift) ;;
        *) die $LINENO "ZAQAR_DELAY_BACKEND must be redis, mongodb or" \
               "swift, not '$ZAQAR_DELAY_BACKEND'" ;;
    esac
    iniset $ZAQAR_CONF drivers message_store "$ZAQAR_DELAY_BACKEND.delay"
    if [[ "$ZAQAR_DELAY_POOLING" != "True" ]]; then
        iniset $ZAQAR_CONF DEFAULT pooling False
    fi
    if [[ "$ZAQAR_DELAY_PUSH" == "True" ]]; then
        iniset $ZAQAR_CONF storage message_pipeline \
            zaqar_delay.notification.notifier
    fi
    _zaqar_delay_iniset_if_set transport max_message_delay \
        "$ZAQAR_DELAY_MAX_MESSAGE_DELAY"
    _zaqar_delay_iniset_if_set delay ttl_shorter_than_delay \
        "$ZAQAR_DELAY_TTL_SHORTER_THAN_DELAY"
    _zaqar_delay_iniset_if_set delay promote_batch_size \
        "$ZAQAR_DELAY_PROMOTE_BATCH_SIZE"
    _zaqar_delay_iniset_if_set delay redis_server_clock \
        "$ZAQAR_DELAY_REDIS_SERVER_CLOCK"
    _zaqar_delay_iniset_if_set delay_push poll_interval \
        "$ZAQAR_DELAY_PUSH_POLL_INTERVAL"
    _zaqar_delay_iniset_if_set delay_push batch_size \
        "$ZAQAR_DELAY_PUSH_BATCH_SIZE"
    _zaqar_delay_iniset_if_set delay_push lease "$ZAQAR_DELAY_PUSH_LEASE"
    _zaqar_delay_iniset_if_set delay_push light_http_client \
        "$ZAQAR_DELAY_PUSH_LIGHT_HTTP_CLIENT"
    local in_server=$ZAQAR_DELAY_DISPATCH_IN_SERVER
    if [[ -z "$in_server" ]] && is_service_enabled zaqar-delay-dispatcher; then
        in_server=False
    fi
    _zaqar_delay_iniset_if_set delay_push dispatch_in_server "$in_server"
}

# start_zaqar_delay() - start the dispatcher, when its service is enabled
function start_zaqar_delay {
    if is_service_enabled zaqar-delay-dispatcher; then
        run_process zaqar-delay-dispatcher \
            "$ZAQAR_BIN_DIR/zaqar-delay-dispatcher --config-file $ZAQAR_CONF"
    fi
}

# stop_zaqar_delay() - stop the dispatcher
function stop_zaqar_delay {
    stop_process zaqar-delay-dispatcher
}

if is_service_enabled zaqar-websocket || is_service_enabled zaqar-wsgi; then
    if [[ "$1" == "stack" && "$2" == "install" ]]; then
        echo_summary "Installing zaqar-delay"
        install_zaqar_delay
    elif [[ "$1" == "stack" && "$2" == "post-config" ]]; then
        echo_summary "Configuring zaqar-delay ($ZAQAR_DELAY_BACKEND.delay)"
        configure_zaqar_delay
    elif [[ "$1" == "stack" && "$2" == "extra" ]]; then
        echo_summary "Starting zaqar-delay"
        start_zaqar_delay
    fi

    if [[ "$1" == "unstack" ]]; then
        stop_zaqar_delay
    fi
fi

# Restore xtrace
$_XTRACE_ZAQAR_DELAY

# Local variables:
# mode: shell-script
# End:
