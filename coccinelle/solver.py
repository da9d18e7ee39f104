# SPDX-License-Identifier: GPL-2.0-only
"""The fixpoints of the safer-fput analysis, run by summaries.cocci's
finalize rule over the facts its rounds wrote (see that file's header).

Three summaries per function, each one of
  ["ok"], ["bad", why] or ["pending", why]
(pending: a callee's body has not been scanned yet; after the last round the
rules treat pending as unknown, and unknown never counts as safe):
  fdtable[F]    F may change the fd table (data/fdtable, CLONE_FILES),
                directly or through callees; an indirect call or a callee
                with no body makes it bad ("unknown: ...");
  locked[F]     F may return with a lock (data/locks) held;
  borrows[F/N]  "ok" when F only borrows its struct file * parameter N.
A function is keyed by name, or by "file:name" when it is static.
"""
import json
import os
from collections import defaultdict

OK = ['ok']


def table(data, name):
    rows = []
    with open(os.path.join(data, name)) as fh:
        for line in fh:
            w = line.partition(chr(35))[0].split()
            if w:
                rows.append(w)
    return rows


def installs(rows):
    """data/installs: name -> index (from 0) of the file argument, or None."""
    out = {}
    for r in rows:
        if len(r) != 2 or not (r[1] == '-' or r[1].isdigit()):
            raise SystemExit('data/installs: "%s": not "NAME ARGUMENT|-"' % ' '.join(r))
        out[r[0]] = None if r[1] == '-' else int(r[1]) - 1
    return out


class Facts:
    def __init__(self, root, data, macros=()):
        self.macros = set(macros)
        self.locks = {r[0]: set(r[1:]) for r in table(data, 'locks')}
        self.releases = set().union(*self.locks.values())
        self.fdtable = {r[0] for r in table(data, 'fdtable')}
        self.installs = installs(table(data, 'installs'))
        self.puts = {r[0] for r in table(data, 'puts')}
        self.opaque = tuple(r[0] for r in table(data, 'opaque'))
        self.statics = set()          # (file, name)
        self.syscalls = set()         # keys of system call bodies
        self.globals = set()          # name
        self.defs = defaultdict(set)  # key -> {file:line}
        self.calls = defaultdict(set)     # key -> {(callee, file, line)}
        self.indirect = defaultdict(set)  # key -> {(file, line, what)}
        self.clone = defaultdict(set)     # key -> {(file, line)}
        self.unrel = defaultdict(set)     # key -> {(lock, file, line)}
        self.unrel_call = defaultdict(set)  # key -> {(callee, file, line)}
        self.params = {}                  # (key, n) -> name
        self.uses = defaultdict(set)      # (file, fn, name) -> {(line, col)}
        self.safe = defaultdict(list)     # (file, fn, name, line, col) -> [kind...]
        self.faddr = set()                # (file, fn, name, line, col)
        rows = []
        for dirpath, _, files in os.walk(root):
            for f in files:
                if f.startswith('facts'):
                    with open(os.path.join(dirpath, f)) as fh:
                        rows.extend(l.rstrip('\n').split('\t') for l in fh)
        # A static function of a header is seen by every file that
        # includes it: only a .c file's statics are keyed by file.
        for r in rows:
            if r[0] == 'D' and r[4] == '1' and r[1].endswith('.c'):
                self.statics.add((r[1], r[2]))
        for r in rows:
            if r[0] == 'D' and (r[1], r[2]) not in self.statics:
                self.globals.add(r[2])
        for r in rows:
            t = r[0]
            if t == 'D':
                self.defs[self.key(r[1], r[2])].add('%s:%s' % (r[1], r[3]))
                if r[5] == '1':
                    self.syscalls.add(self.key(r[1], r[2]))
            elif t == 'C':
                self.calls[self.key(r[1], r[2])].add((r[3], r[1], r[4]))
            elif t == 'I':
                self.indirect[self.key(r[1], r[2])].add((r[1], r[3], r[4]))
            elif t == 'K':
                self.clone[self.key(r[1], r[2])].add((r[1], r[3]))
            elif t == 'F':
                self.unrel[self.key(r[1], r[2])].add((r[3], r[1], r[4]))
            elif t == 'R':
                self.unrel_call[self.key(r[1], r[2])].add((r[3], r[1], r[4]))
            elif t == 'P':
                self.params[(self.key(r[1], r[2]), int(r[3]))] = r[4]
            elif t == 'U':
                self.uses[(r[1], r[2], r[3])].add((r[4], r[5]))
            elif t == 'S':
                self.safe[tuple(r[1:6])].append(r[6:])
            elif t == 'A':
                self.faddr.add(tuple(r[1:6]))

    def key(self, fl, name):
        return '%s:%s' % (fl, name) if (fl, name) in self.statics else name

    def resolve(self, fl, name, listed=True):
        """What a call of name from file fl reaches: a key, or a primitive
        kind ('lock', 'release', 'fdtable', 'install', 'put'), or None (no
        body). For the fd table and the borrows (listed), a name
        data/fdtable or data/installs lists is that kind even where its
        body was scanned: the list says what the call does to the table,
        which the body's own summary need not show (unshare_fd() only
        allocates; its caller swaps the table). For the locks held, its
        body, when scanned, is followed like any other."""
        if listed and name in self.fdtable:
            return 'fdtable'
        if listed and name in self.installs:
            return 'install'
        if (fl, name) in self.statics:
            return self.key(fl, name)
        if name in self.globals:
            return name
        if name in self.fdtable:
            return 'fdtable'
        if name in self.installs:
            return 'install'
        if name in self.puts:
            return 'put'
        if name in self.locks:
            return 'lock'
        if name in self.releases:
            return 'release'
        if name in self.macros or name.startswith('__builtin_'):
            return 'macro'
        return None


def at(fl, line):
    return '%s:%s' % (fl, line)


def least_bad(funcs, own, deps):
    """own[F]: a reason F is bad by itself, or None; deps[F]: [(G, label)]
    or [(None, reason-if-unknown)]. Returns {F: state}."""
    state = {}
    rev = defaultdict(list)
    work = []
    for f in funcs:
        if own.get(f):
            state[f] = ['bad', own[f]]
            work.append(f)
    for f in funcs:
        for g, label in deps.get(f, ()):
            if g is None:
                if f not in state:
                    state[f] = ['bad', label]
                    work.append(f)
            else:
                rev[g].append((f, label))
    while work:
        g = work.pop()
        for f, label in rev.get(g, ()):
            if f not in state:
                state[f] = ['bad', '%s -> %s' % (label, state[g][1])]
                work.append(f)
    return state


def solve(fx, searched):
    funcs = set(fx.defs)

    def unknown(name, fl, line):
        if name in searched:
            return 'unknown: %s() at %s has no body in the tree' % (name, at(fl, line))
        return None

    # ---- fdtable
    own, deps, pend = {}, defaultdict(list), defaultdict(list)
    for f in funcs:
        opaque = all(d.startswith(fx.opaque) for d in fx.defs[f])
        why = []
        for fl, line in sorted(fx.clone[f]):
            why.append('spawns with CLONE_FILES at %s' % at(fl, line))
        for fl, line, what in sorted(fx.indirect[f]):
            if not opaque:
                why.append('unknown: %s at %s' % (what, at(fl, line)))
        for g, fl, line in sorted(fx.calls[f]):
            r = fx.resolve(fl, g)
            if r == 'fdtable':
                why.append('calls %s() at %s' % (g, at(fl, line)))
            elif r in ('lock', 'release', 'put', 'install', 'macro') or opaque:
                continue
            elif r is None:
                u = unknown(g, fl, line)
                if u:
                    why.append(u)
                else:
                    pend[f].append(g)
            elif r != f:
                deps[f].append((r, '%s() at %s' % (g, at(fl, line))))
        if why:
            own[f] = why[0]
    fdt = least_bad(funcs, own, deps)
    # ---- locked: definite (an acquire, or a call of a definite wrapper,
    # with a path to the end that does not release), else unknown (an
    # indirect call, or any call of an unknown or unknown-locked function)
    own, ldeps = {}, defaultdict(list)
    for f in funcs:
        for lk, fl, line in sorted(fx.unrel[f]):
            own[f] = 'takes %s() at %s and may return with it held' % (lk, at(fl, line))
            break
        for g, fl, line in sorted(fx.unrel_call[f]):
            r = fx.resolve(fl, g, listed=False)
            if r in funcs and r != f:
                ldeps[f].append((r, '%s() at %s' % (g, at(fl, line))))
    definite = least_bad(funcs, own, ldeps)
    own, udeps, lpend = {}, defaultdict(list), defaultdict(list)
    for f in funcs:
        if f in definite:
            continue
        why = ['unknown: %s at %s' % (what, at(fl, line))
               for fl, line, what in sorted(fx.indirect[f])]
        for g, fl, line in sorted(fx.calls[f]):
            r = fx.resolve(fl, g, listed=False)
            if r in ('fdtable', 'put', 'install', 'lock', 'release', 'macro'):
                continue
            if r is None:
                u = unknown(g, fl, line)
                if u:
                    why.append(u)
                else:
                    lpend[f].append(g)
            elif r != f:
                udeps[f].append((r, '%s() at %s' % (g, at(fl, line))))
        if why:
            own[f] = why[0]
    for f, st in definite.items():
        own[f] = st[1]
    lck = least_bad(funcs, own, udeps)
    fx.wrappers = sorted({f.rsplit(':', 1)[-1] for f in definite})
    fx.unlockers = sorted({f.rsplit(':', 1)[-1] for f in funcs
                           if any(g in fx.releases for g, _, _ in fx.calls[f])})
    # ---- borrows: a parameter escapes by itself, or through an edge
    bown, bdeps, bpend = {}, defaultdict(list), defaultdict(list)
    bkeys = set()
    for (f, n), name in fx.params.items():
        k = '%s/%d' % (f, n)
        bkeys.add(k)
        fl_fn = None
        for d in fx.defs[f]:
            fl_fn = d.rsplit(':', 1)[0]
        fn = f.rsplit(':', 1)[-1]
        why = []
        for line, col in sorted(fx.uses[(fl_fn, fn, name)], key=lambda x: (int(x[0]), int(x[1]))):
            pos = (fl_fn, fn, name, line, col)
            kinds = fx.safe.get(pos, [])
            if pos in fx.faddr:
                lockarg = [k2 for k2 in kinds if k2[0] == 'fieldarg' and
                           fx.resolve(fl_fn, k2[1]) in ('lock', 'release')]
                if not lockarg:
                    why.append('the address of a field of %s is taken at %s' % (name, at(fl_fn, line)))
                continue
            if any(k2[0] in ('deref', 'test') for k2 in kinds):
                continue
            args = [k2 for k2 in kinds if k2[0] == 'arg']
            if not args:
                why.append('%s is used at %s other than by a dereference, a NULL test '
                           'or as an argument' % (name, at(fl_fn, line)))
                continue
            for _, g, j in args:
                r = fx.resolve(fl_fn, g)
                label = '%s() at %s' % (g, at(fl_fn, line))
                if r == 'put':
                    why.append('%s is put by %s' % (name, label))
                elif r == 'fdtable':
                    why.append('%s is handed to %s' % (name, label))
                elif r == 'install':
                    if fx.installs[g] == int(j):
                        why.append('%s is installed in the fd table by %s' % (name, label))
                elif r in ('lock', 'release'):
                    continue
                elif r == 'macro':
                    why.append('%s is handed to macro %s, whose body is not analysed' % (name, label))
                elif r is None:
                    u = unknown(g, fl_fn, line)
                    if u:
                        why.append(u)
                    else:
                        bpend[k].append(g)
                elif (r, int(j)) not in fx.params:
                    why.append('%s is handed to %s as an argument that is not a '
                               'struct file * parameter' % (name, label))
                else:
                    bdeps[k].append(('%s/%s' % (r, j), label))
        if why:
            bown[k] = why[0]
    brw = least_bad(bkeys, bown, bdeps)
    return {
        'fdtable': finish(funcs, fdt, pend, deps),
        'locked': finish(funcs, lck, lpend, udeps),
        'borrows': finish(bkeys, brw, bpend, bdeps),
    }, needed(fx, fdt, lck, brw, pend, lpend, bpend, deps, udeps, bdeps)


def finish(keys, bad, pend, deps):
    """Non-bad keys are pending when they reach a pending callee."""
    out = {}
    pending = {}
    for k in keys:
        if k not in bad and pend.get(k):
            pending[k] = 'pending: %s() not scanned yet' % pend[k][0]
    rev = defaultdict(list)
    for k in keys:
        for g, label in deps.get(k, ()):
            if g is not None:
                rev[g].append(k)
    work = list(pending)
    while work:
        g = work.pop()
        for k in rev.get(g, ()):
            if k not in bad and k not in pending:
                pending[k] = pending[g]
                work.append(k)
    for k in keys:
        out[k] = bad.get(k) or (['pending', pending[k]] if k in pending else OK)
    return out


def needed(fx, fdt, lck, brw, pend, lpend, bpend, deps, ldeps, bdeps):
    """Names whose bodies the next round should scan: the unscanned callees
    reachable from the sites' functions, for the property each one is still
    pending on. fdtable and borrows start from the functions that call
    fget(), locked from the system call bodies and do_*/ksys_* helpers
    that call fput() (or, for the audit, from the functions that
    SAFER_FPUT_ROOTS names). A bad function is not explored further (but the
    sites' own functions always are)."""
    callers = defaultdict(set)
    for k, calls in fx.calls.items():
        for g, _, _ in calls:
            callers[g].add(k)
    roots_f = callers['fget']
    roots_l = {k for k in callers['fput'] if k in fx.syscalls or
               k.rsplit(':', 1)[-1].startswith(('do_', 'ksys_'))}
    extra = os.environ.get('SAFER_FPUT_ROOTS')
    if extra:
        # coccinelle/audit.sh: the locked summaries of the callees it
        # names, and nothing else.
        with open(extra) as fh:
            names = {l.strip() for l in fh if l.strip()}
        roots_f = set()
        roots_l = {k for k in fx.defs if k.rsplit(':', 1)[-1] in names}
    roots_b = set()
    for k in roots_f:
        for g, fl, _ in fx.calls[k]:
            r = fx.resolve(fl, g)
            roots_b.update(p for p in brw if p.rsplit('/', 1)[0] == r)

    def closure(roots, deps_, bad):
        seen = set(roots)
        work = list(roots)
        while work:
            k = work.pop()
            if k in bad and k not in roots:
                continue
            for g, _ in deps_.get(k, ()):
                if g is not None and g not in seen:
                    seen.add(g)
                    work.append(g)
        return seen

    want = set()
    for roots, deps_, bad, pend_ in ((roots_f, deps, fdt, pend),
                                     (roots_l, ldeps, lck, lpend),
                                     (roots_b, bdeps, brw, bpend)):
        for k in closure(roots, deps_, bad):
            if k not in bad or k in roots:
                want.update(pend_.get(k, ()))
    # The sites' functions also need their own direct callees scanned.
    for k in roots_f | roots_l:
        for g, fl, _ in fx.calls[k]:
            if fx.resolve(fl, g, listed=k not in roots_l) is None:
                want.add(g)
    return want


def main(root, data):
    macros = []
    mp = os.path.join(root, 'macros')
    if os.path.exists(mp):
        with open(mp) as fh:
            macros = [l.strip() for l in fh if l.strip()]
    fx = Facts(os.path.join(root, 'facts'), data, macros)
    searched = set()
    sp = os.path.join(root, 'searched')
    if os.path.exists(sp):
        with open(sp) as fh:
            searched = {l.strip() for l in fh if l.strip()}
    sums, want = solve(fx, searched)
    sums['defs'] = {k: sorted(v) for k, v in fx.defs.items()}
    # Only the macros something is called through matter to the rules:
    # the tree defines millions (register names), the sites call a few.
    called = {g for calls in fx.calls.values() for g, _, _ in calls}
    called.update(k[1] for kinds in fx.safe.values() for k in kinds
                  if k[0] in ('arg', 'fieldarg'))
    sums['macros'] = sorted(fx.macros & called)
    with open(os.path.join(root, 'summaries.json'), 'w') as fh:
        json.dump(sums, fh, indent=0, sort_keys=True)
    with open(os.path.join(root, 'wrappers'), 'w') as fh:
        fh.write(''.join(n + '\n' for n in fx.wrappers))
    with open(os.path.join(root, 'wrappers.unlock'), 'w') as fh:
        fh.write(''.join(n + '\n' for n in fx.unlockers))
    with open(os.path.join(root, 'functions'), 'w') as fh:
        fh.write('%d\n' % len(fx.defs))
    with open(os.path.join(root, 'wanted'), 'w') as fh:
        for n in sorted(want - searched):
            fh.write(n + '\n')
