#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""png_edges.py PNG...: each picture's size, and whether anything is drawn
on its outermost 2 pixels (a label that runs off the picture leaves its
cut glyphs there; gnuplot's charts keep a white margin all round).  Prints
'NAME WxH ok' or 'NAME WxH: N dark pixels on the edge'; exit 1 when one
has any.  No PIL: PNG's own decoding (8-bit RGB or RGBA, no interlace),
decode() and rows() also for other tests' pictures (test_report.sh)."""
import struct
import sys
import zlib


def decode(path):
    """PATH's width, height and its rows, decoded one at a time as they are
    read (a generator): each a list of its pixels' (R, G, B)."""
    png = open(path, "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n", path
    w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", png[16:29])
    assert depth == 8 and ctype in (2, 6) and inter == 0, (path, depth, ctype, inter)
    data, i = b"", 8
    while i < len(png):
        n, kind = struct.unpack(">I4s", png[i:i + 8])
        if kind == b"IDAT":
            data += png[i + 8:i + 8 + n]
        i += 12 + n
    return w, h, unfilter(zlib.decompress(data), w, h, 3 if ctype == 2 else 4)


def unfilter(raw, w, h, bpp):
    stride, prev = w * bpp, bytearray(w * bpp)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        yield [tuple(line[x:x + 3]) for x in range(0, stride, bpp)]


def rows(path):
    """PATH's width, height and all its rows (decode's, in a list)."""
    w, h, lines = decode(path)
    return w, h, list(lines)


def main():
    bad = 0
    for path in sys.argv[1:]:
        w, h, px = rows(path)
        edge = [px[y][x] for y in range(h) for x in range(w)
                if x < 2 or y < 2 or x >= w - 2 or y >= h - 2]
        dark = sum(1 for p in edge if min(p) < 200)
        name = path.rsplit("/", 1)[-1]
        if dark:
            print("%s %dx%d: %d dark pixels on the edge" % (name, w, h, dark))
            bad = 1
        else:
            print("%s %dx%d ok" % (name, w, h))
    return bad


if __name__ == "__main__":
    sys.exit(main())
