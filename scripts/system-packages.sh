#!/bin/sh
# Debian packages the toolkit needs beyond Python: WeasyPrint's Pango, fonts for every script a name
# may be written in (DejaVu: Latin, Greek, Cyrillic, Hebrew, Arabic; Noto CJK: Japanese, Chinese,
# Korean; Noto core: Arabic and Hebrew faces) and fontconfig (the Dockerfile installs the same
# ones), gettext (the translation checks and `make messages`), Chromium for the browser tests,
# poppler-utils for PDF checks, zbar-tools (zbarimg) to decode the QR codes printed on result slips,
# wrk for the load test of `make bench` (bench/bench_public_load.py), npm for axe-core (the
# accessibility audit of the browser tests, tests/browser/axe/package.json) unless an npm command is
# already there (a nodejs package from elsewhere ships its own npm and conflicts with Debian's).
# Installs only what is missing, and only where it can (root with apt-get); otherwise it says what.
set -eu
PACKAGES="libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core fonts-noto-cjk fonts-noto-core fontconfig gettext chromium poppler-utils zbar-tools wrk"
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES npm"
missing=""
for pkg in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian packages:$missing"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
  echo "Missing Debian packages:$missing (install them with apt-get; browser and PDF tests need them)" >&2
fi
