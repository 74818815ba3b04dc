#!/bin/sh
# Installs homed from this unpacked tarball as a systemd service, or removes it.
#
#   sudo ./install.sh                          install (or upgrade) and start
#   sudo ./install.sh --no-start               install, enable, do not start
#   sudo ./install.sh --uninstall              remove what install.sh added; keep the data
#   sudo ./install.sh --uninstall --remove-data  also delete /var/lib/homed and /etc/homed
#   ./install.sh --root=DIR ...                work on a root folder other than / (an image
#                                              being built, a test): no service is started
#
# Installs /usr/local/bin/homed, /etc/systemd/system/homed.service, /etc/sysusers.d/homed.conf
# (the `homed` system user), /etc/homed/env (only when absent: provider keys go there) and
# /usr/local/share/doc/homed/; the data folder is /var/lib/homed, owned by homed, mode 0700.
set -eu

ROOT=/
START=yes
UNINSTALL=no
REMOVE_DATA=no
for arg in "$@"; do
  case "$arg" in
    --root=*) ROOT="${arg#--root=}" ;;
    --no-start) START=no ;;
    --uninstall) UNINSTALL=yes ;;
    --remove-data) REMOVE_DATA=yes ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
  esac
done
if [ "$REMOVE_DATA" = yes ] && [ "$UNINSTALL" = no ]; then
  echo "install.sh: --remove-data goes with --uninstall" >&2; exit 2
fi

HERE=$(cd "$(dirname "$0")" && pwd)
R=${ROOT%/}   # "" for /, so "$R/usr/..." is always an absolute path
LIVE=no; [ -z "$R" ] && LIVE=yes
BIN=/usr/local/bin/homed
UNIT=/etc/systemd/system/homed.service
SYSUSERS=/etc/sysusers.d/homed.conf
DOC=/usr/local/share/doc/homed
DATA=/var/lib/homed
ENVFILE=/etc/homed/env

say() { echo "homed: $*"; }
fail() { echo "install.sh: $*" >&2; exit 1; }

if [ "$LIVE" = yes ]; then
  [ "$(id -u)" -eq 0 ] || fail "run it as root: sudo $0 $*"
  command -v systemctl >/dev/null 2>&1 || fail "systemd's systemctl is missing; without systemd, run ./homed -data DIR yourself"
else
  [ -d "$R" ] || fail "--root=$ROOT is not a folder"
fi

# systemctl for the live system, or offline on the root folder.
sysctl() { if [ "$LIVE" = yes ]; then systemctl "$@"; else systemctl --root="$R" "$@"; fi; }
# Whether systemd runs this system (not so in a container or chroot): then units are only
# enabled or disabled, as files, and nothing is started, stopped or reloaded.
RUNNING=no; [ "$LIVE" = yes ] && [ -d /run/systemd/system ] && RUNNING=yes

uninstall() {
  if [ "$RUNNING" = yes ]; then
    systemctl disable --now homed.service 2>/dev/null || true
  elif [ -f "$R$UNIT" ]; then
    sysctl disable homed.service >/dev/null 2>&1 || true
  fi
  rm -f "$R$BIN" "$R$UNIT" "$R$SYSUSERS"
  rm -rf "$R$DOC"
  if [ "$RUNNING" = yes ]; then systemctl daemon-reload; fi
  if [ "$REMOVE_DATA" = yes ]; then
    rm -rf "$R$DATA" "$R/etc/homed"
    say "removed, with $DATA and /etc/homed"
  else
    say "removed; kept the data in $DATA and the settings in $ENVFILE (--uninstall --remove-data deletes them)"
  fi
  say "the homed system user is kept (userdel homed removes it)"
}

if [ "$UNINSTALL" = yes ]; then uninstall; exit 0; fi

for f in homed homed.service homed.sysusers env README.md; do
  [ -f "$HERE/$f" ] || fail "$HERE/$f is missing: run install.sh from the unpacked tarball"
done
if [ -f "$R/usr/lib/systemd/system/homed.service" ] || [ -f "$R/lib/systemd/system/homed.service" ]; then
  fail "homed is installed from a .deb or .rpm package: upgrade or remove it with the package manager"
fi
if [ "$LIVE" = yes ] && ! "$HERE/homed" --version >/dev/null 2>&1; then
  fail "this homed does not run on this machine ($(uname -m)): take the tarball for this CPU (-linux-x64 or -linux-arm64)"
fi

# The program: copied beside, then renamed, so a running service never sees a half-written file.
install -d -m 0755 "$R/usr/local/bin"
install -m 0755 "$HERE/homed" "$R$BIN.new"
mv -f "$R$BIN.new" "$R$BIN"

# The unit as the packages ship it, with the paths of a /usr/local install.
install -d -m 0755 "$R/etc/systemd/system"
sed -e "s|/usr/bin/homed|$BIN|g" -e "s|/usr/share/doc/homed|$DOC|g" "$HERE/homed.service" > "$R$UNIT.new"
chmod 0644 "$R$UNIT.new"
mv -f "$R$UNIT.new" "$R$UNIT"

install -d -m 0755 "$R$DOC"
for f in README.md LICENSE THIRD_PARTY_LICENSES.txt; do
  if [ -f "$HERE/$f" ]; then install -m 0644 "$HERE/$f" "$R$DOC/$f"; fi
done

# The service user, through systemd-sysusers (what the packages use too).
install -d -m 0755 "$R/etc/sysusers.d"
install -m 0644 "$HERE/homed.sysusers" "$R$SYSUSERS"
if command -v systemd-sysusers >/dev/null 2>&1; then
  if [ "$LIVE" = yes ]; then systemd-sysusers homed.conf; else systemd-sysusers --root="$R" homed.conf; fi
elif [ "$LIVE" = yes ]; then
  id homed >/dev/null 2>&1 || useradd --system --user-group --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin homed
else
  fail "systemd-sysusers is needed to make the homed user under --root"
fi

# Provider keys and settings: root-only, and never overwritten (an upgrade keeps them).
install -d -m 0755 "$R/etc/homed"
[ -f "$R$ENVFILE" ] || install -m 0600 "$HERE/env" "$R$ENVFILE"

# The data folder: the homed user's alone. Numeric ids from the root folder's own files, so
# --root works whatever this machine's users are.
uid=$(awk -F: '$1 == "homed" { print $3 }' "$R/etc/passwd")
gid=$(awk -F: '$1 == "homed" { print $3 }' "$R/etc/group")
[ -n "$uid" ] && [ -n "$gid" ] || fail "the homed user was not made"
install -d -m 0755 "$R/var/lib"
install -d -m 0700 "$R$DATA"
chown "$uid:$gid" "$R$DATA"
chmod 0700 "$R$DATA"

if [ "$RUNNING" = no ]; then
  sysctl enable homed.service >/dev/null 2>&1
  if [ "$LIVE" = no ]; then say "installed into $ROOT (enabled; nothing started)"
  else say "installed and enabled; systemd is not running here, so nothing was started"
  fi
  exit 0
fi

systemctl daemon-reload
systemctl enable homed.service >/dev/null 2>&1
if [ "$START" = no ]; then
  say "installed and enabled; start it with: sudo systemctl start homed"
  exit 0
fi
systemctl restart homed.service
i=0
while [ ! -s "$DATA/admin.token" ] && [ $i -lt 30 ]; do sleep 0.5; i=$((i + 1)); done
addr=$(sed -n 's/^HOMED_ADDR=//p' "$ENVFILE" | tail -n 1)
addr=${addr:-127.0.0.1:8080}
case "$addr" in 0.0.0.0:*|\[::\]:*) addr="$(hostname):${addr##*:}" ;; esac
if systemctl is-active --quiet homed.service; then
  say "$(homed --version) is running: open http://$addr"
  say "the admin token (the console's password): sudo cat $DATA/admin.token"
  say "provider keys and settings: $ENVFILE, then sudo systemctl restart homed"
else
  say "the service did not start: see journalctl -u homed" >&2
  exit 1
fi
