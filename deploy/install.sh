#!/usr/bin/env bash
# Install the Shake That City table companion on Raspberry Pi OS Bookworm or Trixie (Pi 4 or Pi 5).
#
#   sudo deploy/install.sh                     install or update (idempotent: a second run changes nothing)
#   sudo deploy/install.sh --hostname NAME     answer as NAME.local (default: shakecity)
#   sudo deploy/install.sh --keep-hostname     leave the hostname alone
#   sudo deploy/install.sh --uninstall         stop and remove the service and the venv (data and config stay)
#   sudo deploy/install.sh --uninstall --purge ...and remove the data, the config and the service user
#
# What it does: apt packages (python3-picamera2 with --no-install-recommends, venv, avahi), a service
# user in the video and gpio groups, a venv with --system-site-packages in /opt/shakecity/venv, pip
# pinned to the system numpy (constraints file: Bookworm's picamera2 needs numpy 1.24), the project
# installed into it, /etc/shakecity/config.json from the example, the systemd unit enabled and
# started, and the .local name (avahi). See deploy/README.md.
set -euo pipefail

# SHAKECITY_INSTALL_ROOT (tests only) installs under that directory instead of /
root="${SHAKECITY_INSTALL_ROOT:-}"
PREFIX="$root/opt/shakecity"
VENV="$PREFIX/venv"
DATA_DIR="$root/var/lib/shakecity"
CONFIG_DIR="$root/etc/shakecity"
UNIT_NAME=shakecity.service
UNIT_PATH="$root/etc/systemd/system/$UNIT_NAME"
SERVICE_USER=shakecity
APT_PACKAGES=(python3 python3-venv python3-pip python3-picamera2 python3-lgpio avahi-daemon)

original_args=("$@")
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source_dir="$(cd "$here/.." && pwd)"
wanted_hostname=shakecity
set_hostname=1
action=install
purge=0

say() { printf 'shakecity install: %s\n' "$*"; }
die() { printf 'shakecity install: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
}

while [ "$#" -gt 0 ]; do
    case "$1" in
        --uninstall) action=uninstall ;;
        --purge) purge=1 ;;
        --hostname)
            [ "$#" -ge 2 ] || die "--hostname needs a name"
            wanted_hostname="$2"
            shift
            ;;
        --keep-hostname) set_hostname=0 ;;
        -h | --help)
            usage
            exit 0
            ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done

if [ "$(id -u)" -ne 0 ]; then
    exec sudo -- "$0" "${original_args[@]}"
fi

os_codename() {
    if [ -r "$root/etc/os-release" ]; then
        # shellcheck disable=SC1091
        (. "$root/etc/os-release" && printf '%s' "${VERSION_CODENAME:-unknown}")
    else
        printf 'unknown'
    fi
}

uninstall() {
    if systemctl list-unit-files "$UNIT_NAME" >/dev/null 2>&1 && [ -e "$UNIT_PATH" ]; then
        say "stopping and disabling $UNIT_NAME"
        systemctl disable --now "$UNIT_NAME" >/dev/null 2>&1 || true
        rm -f "$UNIT_PATH"
        systemctl daemon-reload
    fi
    if [ -d "$PREFIX" ]; then
        say "removing $PREFIX"
        rm -rf "$PREFIX"
    fi
    if [ "$purge" -eq 1 ]; then
        say "removing $DATA_DIR and $CONFIG_DIR"
        rm -rf "$DATA_DIR" "$CONFIG_DIR"
        if id "$SERVICE_USER" >/dev/null 2>&1; then
            userdel "$SERVICE_USER"
        fi
    else
        say "kept $DATA_DIR (games) and $CONFIG_DIR (config); --purge removes them"
    fi
    say "uninstalled (the hostname and the apt packages are left as they are)"
}

install_apt_packages() {
    local missing=() pkg
    for pkg in "${APT_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        say "apt packages already installed"
        return
    fi
    say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

ensure_user() {
    if ! id "$SERVICE_USER" >/dev/null 2>&1; then
        say "creating the service user $SERVICE_USER"
        useradd --system --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    local group
    for group in video gpio render; do
        if getent group "$group" >/dev/null && ! id -nG "$SERVICE_USER" | tr ' ' '\n' | grep -qx "$group"; then
            usermod -aG "$group" "$SERVICE_USER"
        fi
    done
    if [ ! -d "$DATA_DIR" ]; then
        install -d -m 0750 "$DATA_DIR"
        chown "$SERVICE_USER:$SERVICE_USER" "$DATA_DIR"
    fi
}

ensure_venv() {
    local cfg="$VENV/pyvenv.cfg"
    if [ -f "$cfg" ] && ! grep -qi '^include-system-site-packages *= *true' "$cfg"; then
        say "recreating $VENV with --system-site-packages (picamera2 comes from apt)"
        rm -rf "$VENV"
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        say "creating $VENV"
        install -d -m 0755 "$PREFIX"
        python3 -m venv --system-site-packages "$VENV"
    fi
}

write_if_changed() { # write standard input to $1 only when it differs; status 0 when it changed
    local target="$1" tmp
    tmp="$(mktemp)"
    cat >"$tmp"
    if [ -f "$target" ] && cmp -s "$tmp" "$target"; then
        rm -f "$tmp"
        return 1
    fi
    install -m 0644 "$tmp" "$target"
    rm -f "$tmp"
    return 0
}

source_stamp() {
    (
        cd "$source_dir"
        find pyproject.toml scoring vision device web -type f \
            ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 | sort -z | xargs -0 sha256sum
    ) | sha256sum | cut -d' ' -f1
}

install_project() {
    # pip must keep the system numpy that apt's picamera2 was built against (Bookworm: 1.24)
    local pin
    pin="$("$VENV/bin/python" -c 'import numpy; print("numpy==" + numpy.__version__)')" ||
        die "the system numpy is not importable from $VENV (python3-picamera2 brings python3-numpy)"
    if printf '%s\n' "$pin" | write_if_changed "$PREFIX/constraints.txt"; then
        say "numpy pinned: $pin"
    fi
    local stamp
    stamp="$(source_stamp)"
    if [ -f "$PREFIX/installed-from" ] && [ "$(cat "$PREFIX/installed-from")" = "$stamp" ] &&
        [ -x "$VENV/bin/shakecity" ]; then
        say "shakecity already installed from this source"
        return 1
    fi
    say "installing shakecity from $source_dir into $VENV"
    PIP_DISABLE_PIP_VERSION_CHECK=1 "$VENV/bin/python" -m pip install -q \
        --constraint "$PREFIX/constraints.txt" "$source_dir"
    printf '%s\n' "$stamp" >"$PREFIX/installed-from"
    return 0
}

install_config() {
    install -d -m 0755 "$CONFIG_DIR"
    if [ ! -f "$CONFIG_DIR/config.json" ]; then
        say "writing $CONFIG_DIR/config.json (edit it to change the camera or the pin map)"
        install -m 0644 "$here/shakecity.example.json" "$CONFIG_DIR/config.json"
    fi
}

install_unit() { # status 0 when the unit file changed
    install -d -m 0755 "$(dirname "$UNIT_PATH")"
    if write_if_changed "$UNIT_PATH" <"$here/$UNIT_NAME"; then
        say "installed $UNIT_PATH"
        systemctl daemon-reload
        return 0
    fi
    return 1
}

ensure_hostname() {
    [ "$set_hostname" -eq 1 ] || return 0
    if [ "$(hostname)" != "$wanted_hostname" ]; then
        say "setting the hostname to $wanted_hostname (the page: http://$wanted_hostname.local:8000/)"
        if command -v raspi-config >/dev/null; then
            raspi-config nonint do_hostname "$wanted_hostname"
        else
            hostnamectl set-hostname "$wanted_hostname"
            sed -i "s/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$wanted_hostname/" "$root/etc/hosts"
        fi
        systemctl restart avahi-daemon || true
    fi
    systemctl enable --now avahi-daemon >/dev/null 2>&1 || true
}

ensure_serial_console_off() {
    # seats 3 and 4 use GPIO14 and GPIO15 (the UART): the serial console must not drive them
    if command -v raspi-config >/dev/null && [ "$(raspi-config nonint get_serial_cons 2>/dev/null || echo 1)" = "0" ]; then
        say "turning the serial console off (seat LEDs 3 and 4 use GPIO14/15); reboot once to apply"
        raspi-config nonint do_serial_cons 1
    fi
}

install_all() {
    case "$(os_codename)" in
        bookworm | trixie) ;;
        *) say "warning: made for Raspberry Pi OS Bookworm or Trixie, this is $(os_codename); carrying on" ;;
    esac
    install_apt_packages
    ensure_user
    ensure_venv
    local changed=0
    install_project && changed=1
    install_config
    install_unit && changed=1
    ensure_serial_console_off
    ensure_hostname
    systemctl enable "$UNIT_NAME" >/dev/null 2>&1
    if [ "$changed" -eq 1 ] && systemctl is-active --quiet "$UNIT_NAME"; then
        say "restarting $UNIT_NAME"
        systemctl restart "$UNIT_NAME"
    elif ! systemctl is-active --quiet "$UNIT_NAME"; then
        say "starting $UNIT_NAME"
        systemctl start "$UNIT_NAME"
    else
        say "$UNIT_NAME already running, nothing changed"
    fi
    say "done: open http://$(hostname).local:8000/ on a phone; the join PIN is in: journalctl -u shakecity"
    say "check the camera and pins with: sudo -u $SERVICE_USER $VENV/bin/shakecity doctor --no-grab"
}

case "$action" in
    install) install_all ;;
    uninstall) uninstall ;;
esac
