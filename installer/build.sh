#!/usr/bin/env bash
# Build Noda Desktop for computers without network access (Debian/Ubuntu build machine, Python 3.11).
#   installer/build.sh           dist/noda-desktop/                         one folder: noda-desktop, noda, _internal/
#                                dist/noda-desktop_<version>_<arch>.deb     installs under /opt/noda-desktop
#                                dist/noda-desktop-<version>-source.tar.gz  the source to hand over with it (AGPL)
#                                dist/SHA256SUMS                            to check the files after carrying them
#   installer/build.sh --no-deb  the folder and the source archive only
# The project's .venv is created, and `.[build]` installed into it, when missing; after that no network is used.
# Build on the same Debian/Ubuntu release as the target computers: the .deb depends on that release's packages.
set -euo pipefail
shopt -s inherit_errexit
umask 022
cd "$(dirname "$0")/.."

DIST=dist
WORK=build/pyinstaller
DEB_ROOT=build/deb
BUNDLE=$DIST/noda-desktop

setup_venv() {
    local python=${PYTHON:-python3.11}
    command -v "$python" >/dev/null || python=python3
    [ -x .venv/bin/python ] || "$python" -m venv .venv
    local stamp=".venv/.installed[build]"
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
        .venv/bin/python -m pip install -q -e ".[build]"
        touch "$stamp"
    fi
}

build_bundle() {
    command -v strip >/dev/null || { echo "strip이 없습니다: apt-get install binutils" >&2; exit 1; }
    .venv/bin/pyinstaller --noconfirm --clean --log-level WARN --distpath "$DIST" --workpath "$WORK" \
        installer/noda.spec
}

source_archive() {  # $1 version: the files of this checkout (tracked and new, not ignored)
    local out="$DIST/noda-desktop-$1-source.tar.gz"
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files -z --cached --others --exclude-standard \
            | tar --null -T - --ignore-failed-read --transform "s,^,noda-desktop-$1/," -czf "$out"
    else
        tar --exclude=./.venv --exclude=./dist --exclude=./build --transform "s,^\.,noda-desktop-$1," -czf "$out" .
    fi
}

host_depends() {  # $1 package root: the Depends line dpkg-shlibdeps reads off the bundled programs and libraries
    local root internal work files
    root=$(realpath "$1")
    internal=$root/opt/noda-desktop/_internal
    work=$(mktemp -d)
    mkdir "$work/debian"
    printf 'Source: noda-desktop\n\nPackage: noda-desktop\nArchitecture: any\n' >"$work/debian/control"
    mapfile -d '' files < <(find "$root/opt" -type f \( -name '*.so*' -o -name noda -o -name noda-desktop \) -print0)
    # Private libraries (Qt, MuPDF …) have no Debian dependency information: --ignore-missing-info.
    (cd "$work" && dpkg-shlibdeps -O --ignore-missing-info -l"$internal" -l"$internal/PySide6/Qt/lib" "${files[@]}" \
        2>"$work/log") || { grep -v "warning:" "$work/log" >&2; exit 1; }
    rm -rf "$work"
}

build_deb() {  # $1 version; sets DEB
    local arch root=$DEB_ROOT depends
    command -v dpkg-shlibdeps >/dev/null || { echo "dpkg-shlibdeps가 없습니다: apt-get install dpkg-dev" >&2; exit 1; }
    arch=$(dpkg --print-architecture)
    DEB="$DIST/noda-desktop_$1_$arch.deb"
    rm -rf "$root"
    mkdir -p "$root/DEBIAN" "$root/opt" "$root/usr/bin"
    cp -a "$BUNDLE" "$root/opt/noda-desktop"
    ln -s ../../opt/noda-desktop/noda "$root/usr/bin/noda"
    ln -s ../../opt/noda-desktop/noda-desktop "$root/usr/bin/noda-desktop"
    install -Dm644 installer/deb/noda-desktop.desktop "$root/usr/share/applications/noda-desktop.desktop"
    install -Dm644 resources/icons/noda.svg "$root/usr/share/icons/hicolor/scalable/apps/noda-desktop.svg"
    install -Dm644 resources/icons/noda.png "$root/usr/share/icons/hicolor/256x256/apps/noda-desktop.png"
    install -Dm644 "$BUNDLE/NOTICE.txt" "$root/usr/share/doc/noda-desktop/copyright"
    install -Dm644 -t "$root/usr/share/doc/noda-desktop" "$BUNDLE"/docs/*.md   # local API and MCP (also in /opt)
    depends=$(host_depends "$root" | sed 's/^shlibs:Depends=//')
    sed -e "s/@VERSION@/$1/" -e "s/@ARCH@/$arch/" -e "s|@DEPENDS@|$depends|" \
        -e "s/@MAINTAINER@/${NODA_DEB_MAINTAINER:-Noda Desktop <noda-desktop@localhost>}/" \
        -e "s/@INSTALLED_SIZE@/$(du -sk --apparent-size "$root" | cut -f1)/" \
        installer/deb/control.in >"$root/DEBIAN/control"
    (cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
    # No maintainer scripts: installing and removing touch nothing but the package's own files.
    dpkg-deb --root-owner-group -Zxz --build "$root" "$DEB" >/dev/null
}

main() {
    local with_deb=1 version
    DEB=""
    [ "${1:-}" = "--no-deb" ] && with_deb=0
    setup_venv
    version=$(.venv/bin/python -c "import engine; print(engine.__version__)")
    build_bundle
    source_archive "$version"
    if [ "$with_deb" = 1 ]; then
        command -v dpkg-deb >/dev/null || { echo "dpkg-deb가 없어 .deb는 건너뜁니다." >&2; with_deb=0; }
    fi
    if [ "$with_deb" = 1 ]; then
        build_deb "$version"
    fi
    local carried=("noda-desktop-$version-source.tar.gz")
    [ -z "$DEB" ] || carried+=("$(basename "$DEB")")
    (cd "$DIST" && sha256sum -- "${carried[@]}" >SHA256SUMS)
    echo
    echo "크기 (sizes):"
    du -sh "$BUNDLE" | sed 's/^/  unpacked bundle  /'
    [ -z "$DEB" ] || du -h "$DEB" | sed 's/^/  .deb             /'
    du -h "$DIST/noda-desktop-$version-source.tar.gz" | sed 's/^/  source archive   /'
}

main "$@"
