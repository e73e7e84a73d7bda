#!/usr/bin/env python3
"""Writes the zip a WinBoard user downloads (docs/download.md): the Windows
executables of DIST, variants.ini, the piece images, INSTALL.txt and the changelog,
in one folder `lancer-VERSION/`.

Usage: package.py --version VERSION --bench NODES --dist DIST

The zip is the same bytes for the same inputs: entries sorted, every time stamp the
commit's (or SOURCE_DATE_EPOCH's).
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def stamp():
    """The time stamp of every entry: SOURCE_DATE_EPOCH, else the commit's time."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch:
        try:
            epoch = subprocess.run(
                ["git", "log", "-1", "--format=%ct"],
                cwd=ROOT, capture_output=True, text=True, check=True,
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            epoch = "315532800"  # 1980-01-01, the zip format's earliest date
    t = time.gmtime(max(int(epoch), 315532800))
    return (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec)


def crlf(text):
    """Windows line ends, so that Notepad of Windows 7 shows the lines."""
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--version", required=True)
    ap.add_argument("--bench", required=True, help="the bench signature, for INSTALL.txt")
    ap.add_argument("--dist", required=True)
    args = ap.parse_args()

    exes = sorted(glob.glob(os.path.join(args.dist, f"lancer-{args.version}-windows-*.exe")))
    if not exes:
        sys.exit(f"package.py: no lancer-{args.version}-windows-*.exe in {args.dist}")
    top = f"lancer-{args.version}"
    entries = []  # (name in the zip, bytes, executable)
    for exe in exes:
        with open(exe, "rb") as f:
            entries.append((f"{top}/{os.path.basename(exe)}", f.read(), True))
    with open(os.path.join(ROOT, "variants.ini"), encoding="utf-8") as f:
        entries.append((f"{top}/variants.ini", crlf(f.read()).encode(), False))
    with open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8") as f:
        entries.append((f"{top}/CHANGELOG.txt", crlf(f.read()).encode(), False))
    with open(os.path.join(ROOT, "docs", "install-windows.txt"), encoding="utf-8") as f:
        text = f.read().replace("@VERSION@", args.version).replace("@BENCH@", args.bench)
        entries.append((f"{top}/INSTALL.txt", crlf(text).encode(), False))

    # Piece images: XBoard's SVGs as committed, WinBoard's bitmaps drawn now.
    for svg in sorted(glob.glob(os.path.join(ROOT, "xboard", "pieces", "*.svg"))):
        with open(svg, "rb") as f:
            entries.append((f"{top}/pieces/{os.path.basename(svg)}", f.read(), False))
    maker = os.path.join(ROOT, "xboard", "make-pieces.py")
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([sys.executable, maker, "--winboard", tmp], capture_output=True, text=True)
        if r.returncode == 0:
            for bmp in sorted(glob.glob(os.path.join(tmp, "*.bmp"))):
                with open(bmp, "rb") as f:
                    entries.append((f"{top}/pieces/{os.path.basename(bmp)}", f.read(), False))
        else:
            sys.exit(f"package.py: make-pieces.py --winboard failed: {r.stderr.strip()}")

    entries.sort(key=lambda e: e[0])
    out = os.path.join(args.dist, f"lancer-{args.version}-windows.zip")
    when = stamp()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data, executable in entries:
            info = zipfile.ZipInfo(name, date_time=when)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so that the mode below is read
            info.external_attr = (0o755 if executable else 0o644) << 16
            z.writestr(info, data)
    print(f"wrote {out} ({len(entries)} files, {os.path.getsize(out)} bytes)")


if __name__ == "__main__":
    main()
