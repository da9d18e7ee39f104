#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""sections.py MAINTAINERS FILE... - print "SECTION<TAB>PREFIX<TAB>FILE" per file.

SECTION is the MAINTAINERS section whose F: pattern matches FILE most
specifically (longest pattern; X: excludes honoured), the way the generated
commits are split one per subsystem. PREFIX is the subject prefix used for
that commit: the longest match in data/prefixes ($SAFER_FPUT_DATA), else
derived from the path of FILE.
"""
import fnmatch
import os
import re
import sys


def parse(path):
    sections, name, pats, excl = [], None, [], []
    with open(path, encoding='utf-8', errors='replace') as fh:
        for line in fh:
            line = line.rstrip('\n')
            m = re.match(r'^([A-Z]):\s*(.*)$', line)
            if m and name:
                if m.group(1) == 'F':
                    pats.append(m.group(2).strip())
                elif m.group(1) == 'X':
                    excl.append(m.group(2).strip())
            elif line.strip() and not m:
                if name:
                    sections.append((name, pats, excl))
                name, pats, excl = line.strip(), [], []
    if name:
        sections.append((name, pats, excl))
    # Skip the preamble before the first real section.
    return [s for s in sections if s[1]]


def matches(pat, f):
    if pat.endswith('/'):
        return f.startswith(pat)
    if any(c in pat for c in '*?['):
        return fnmatch.fnmatchcase(f, pat) and \
            (pat.count('/') == f.count('/') or pat.endswith('*'))
    return f == pat or f.startswith(pat.rstrip('/') + '/')


def section(sections, f):
    best, blen = 'THE REST', -1
    for name, pats, excl in sections:
        if any(matches(x, f) for x in excl):
            continue
        for p in pats:
            if matches(p, f) and len(p) > blen:
                best, blen = name, len(p)
    return best


def load_prefixes(path):
    """The (path, prefix) rows of data/prefixes, longest path first."""
    rows = []
    try:
        fh = open(path, encoding='utf-8')
    except OSError as e:
        sys.exit('sections.py: %s: %s' % (path, e.strerror))
    with fh:
        for n, line in enumerate(fh, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            m = re.match(r'^(\S+)\s+(\S.*)$', line)
            if not m:
                sys.exit('sections.py: %s:%d: not "path prefix": %s' % (path, n, line))
            rows.append((m.group(1), m.group(2)))
    return sorted(rows, key=lambda r: -len(r[0]))


def prefix(rows, f):
    for k, v in rows:
        if f.startswith(k):
            return v
    parts = f.split('/')
    if parts[0] == 'arch':
        return parts[1]
    if parts[0] in ('fs', 'net', 'mm', 'kernel', 'block', 'ipc', 'security') and len(parts) > 2:
        return parts[1]
    if parts[0] in ('fs', 'mm', 'ipc', 'block'):
        return parts[0]
    if parts[0] == 'kernel':
        return os.path.splitext(parts[1])[0]
    return parts[-2] if len(parts) > 2 else parts[0]


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: sections.py MAINTAINERS FILE...')
    secs = parse(sys.argv[1])
    data = os.environ.get('SAFER_FPUT_DATA',
                          os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data'))
    rows = load_prefixes(os.path.join(data, 'prefixes'))
    for f in sys.argv[2:]:
        print('%s\t%s\t%s' % (section(secs, f), prefix(rows, f), f))


if __name__ == '__main__':
    main()
