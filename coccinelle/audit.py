#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""audit.py COMMAND ARG... - the steps of coccinelle/audit.sh that read the
facts coccinelle/audit.cocci wrote under OUT/facts/ROUND/.

  classes GREP TREE  the __free() classes whose destructor is a synchronous
                     put: the DEFINE_FREE(name, ...) of a GREP hit
  next OUT           the functions whose callers the next round looks for,
                     "name<TAB>file" (file: where a static one is defined;
                     "*" for a global one); appends them to OUT/walk
  guards TREE FILE   the cleanup.h guard classes FILE's DEFINE_*GUARD*()
                     lines define (git grep -h -A4 output), "class<TAB>
                     function its lock part calls"
  callees OUT        the callees whose summaries (summaries.sh) the rows
                     need with COCCI_AUDIT_CALLEES=1
  rows OUT TREE      the table, the lines git grep found that are no site,
                     and the verdict; exits 1 when a git grep line is not
                     accounted for

A function is keyed (file, name) when it is static in a .c file, else
("*", name). Its context is how it is reached: a system call body is
"user task"; a function whose address data/entries knows (a struct field it
is stored in, a call it is handed to) has that entry's context; otherwise
the contexts of its callers, found by the walk, each caller's own callers in
turn. The locks at a site are the locks held there in its function (data/locks
calls not released on some path to it, lock guards whose scope holds it)
and, for every caller the walk finds, the locks held at the call, up to the
callers' own entries. Where the walk cannot see every way in (an address
stored elsewhere, a use spatch did not analyse, callers beyond
COCCI_AUDIT_DEPTH), the context and the locks say unknown and why.
"""
import json
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get('SAFER_FPUT_DATA', os.path.join(HERE, 'data'))
DEPTH = int(os.environ.get('COCCI_AUDIT_DEPTH', '5'))
CALLEES = os.environ.get('COCCI_AUDIT_CALLEES', '0') == '1'
# The cleanup.h helpers: macros in any tree (a test case need not define
# them); a guard's lock is read from its class, not from these calls.
CLEANUP = {'guard', 'scoped_guard', 'scoped_cond_guard', 'ACQUIRE', 'ACQUIRE_ERR',
           'CLASS', 'no_free_ptr', 'return_ptr', 'retain_and_null_ptr', 'take_fd'}
EXPORT = re.compile(r'^\s*EXPORT_SYMBOL(_GPL|_NS|_NS_GPL|_FOR_MODULES)?\s*\(')
IDENT = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')


def table(name):
    rows = []
    with open(os.path.join(DATA, name)) as fh:
        for line in fh:
            w = line.partition(chr(35))[0].split()
            if w:
                rows.append(w)
    return rows


def lines_of(path):
    if not os.path.exists(path):
        return []
    with open(path) as fh:
        return [l.rstrip('\n') for l in fh if l.strip()]


# ------------------------------------------------------------ source text
class Source:
    """A file's text with comments, strings, character constants and
    preprocessor lines blanked (newlines kept): braces and parentheses
    there match as the compiler sees them."""
    cache = {}

    @classmethod
    def get(cls, tree, f):
        if f not in cls.cache:
            cls.cache[f] = cls(os.path.join(tree, f))
        return cls.cache[f]

    def __init__(self, path):
        with open(path, encoding='utf-8', errors='replace') as fh:
            self.text = fh.read()
        self.starts = [0]
        for i, c in enumerate(self.text):
            if c == '\n':
                self.starts.append(i + 1)
        self.skel = self._skeleton(self.text)
        self.match = {}
        stack = []
        for i, c in enumerate(self.skel):
            if c in '({[':
                stack.append(i)
            elif c in ')}]' and stack:
                self.match[stack.pop()] = i

    @staticmethod
    def _skeleton(t):
        out = list(t)
        i, n = 0, len(t)
        bol = True
        while i < n:
            c = t[i]
            if bol and c in ' \t':
                i += 1
                continue
            if bol and c == '#':
                # A preprocessor line and its continuations.
                while i < n and not (t[i] == '\n' and t[i - 1] != '\\'):
                    out[i] = ' '
                    i += 1
                continue
            bol = False
            if c == '\n':
                bol = True
                i += 1
            elif t.startswith('/*', i):
                j = t.find('*/', i + 2)
                j = n if j < 0 else j + 2
                for k in range(i, j):
                    if out[k] != '\n':
                        out[k] = ' '
                i = j
            elif t.startswith('//', i):
                while i < n and t[i] != '\n':
                    out[i] = ' '
                    i += 1
            elif c in '"\'':
                j = i + 1
                while j < n and t[j] != c and t[j] != '\n':
                    j += 2 if t[j] == '\\' else 1
                for k in range(i + 1, min(j, n)):
                    out[k] = ' '
                i = j + 1
            else:
                i += 1
        return ''.join(out)

    def off(self, line, col):
        return self.starts[int(line) - 1] + int(col)

    def line_text(self, line):
        s = self.starts[int(line) - 1]
        e = self.text.find('\n', s)
        return self.text[s:] if e < 0 else self.text[s:e]

    def enclosing_open(self, o):
        """The offset of the innermost '{' whose block contains o."""
        best = None
        for s, e in self.match.items():
            if self.skel[s] == '{' and s < o < e and (best is None or s > best):
                best = s
        return best

    def depth(self, o):
        return sum(1 for s, e in self.match.items() if self.skel[s] == '{' and s < o < e)

    def next_tok(self, o):
        while o < len(self.skel) and self.skel[o].isspace():
            o += 1
        return o

    def args(self, o):
        """The top-level arguments of the parenthesis at o, as text."""
        e = self.match.get(o)
        if e is None:
            return []
        out, depth, start = [], 0, o + 1
        for i in range(o + 1, e):
            c = self.skel[i]
            if c in '({[':
                depth += 1
            elif c in ')}]':
                depth -= 1
            elif c == ',' and depth == 0:
                out.append(' '.join(self.text[start:i].split()))
                start = i + 1
        out.append(' '.join(self.text[start:e].split()))
        return [a for a in out if a] if out != [''] else []

    def call_arg(self, o):
        """(callee, index) when o is an argument of a call (the innermost
        parenthesis around o, after a name), else (None, None)."""
        best = None
        for s, e in self.match.items():
            if self.skel[s] == '(' and s < o < e and (best is None or s > best):
                best = s
        if best is None:
            return None, None
        i = best - 1
        while i >= 0 and self.skel[i].isspace():
            i -= 1
        j = i + 1
        while i >= 0 and (self.skel[i].isalnum() or self.skel[i] == '_'):
            i -= 1
        name = self.skel[i + 1:j]
        if not IDENT.fullmatch(name or '-'):
            return None, None
        n, i = 0, best + 1
        while i < o:
            c = self.skel[i]
            if c in '({[':
                i = self.match.get(i, i) + 1
                continue
            if c == ',':
                n += 1
            i += 1
        return name, n

    def statement_end(self, o):
        """The end of the statement that starts at o: its block's closing
        brace, or the first ';' outside parentheses."""
        o = self.next_tok(o)
        if self.skel[o:o + 1] == '{':
            return self.match.get(o, len(self.skel))
        i = o
        while i < len(self.skel):
            c = self.skel[i]
            if c in '({[':
                i = self.match.get(i, i) + 1
                continue
            if c == ';':
                return i
            i += 1
        return i


# ------------------------------------------------------------ facts
class Facts:
    def __init__(self, out):
        self.defs = {}                     # (file, name) -> {'line', 'static', 'syscall'}
        self.globaldefs = defaultdict(set)  # name -> {file}
        self.targets = {}                  # (file, line, col) -> (fn, name)
        self.frees = {}                    # (file, line, col) -> (fn, class, var)
        self.held = defaultdict(set)       # pos -> {(lockfn, expr, qline)}
        self.before = defaultdict(set)     # pos -> {(g, qline)}
        self.indirect = defaultdict(set)   # pos -> {(qline, what)}
        self.guards = defaultdict(set)     # (file, fn) -> {(line, col, class, kind)}
        self.uses = defaultdict(set)       # (file, line, col) -> {(fn, name)}
        self.inits = {}                    # pos -> (struct, field)
        self.argof = {}                    # pos -> (callee, index)
        self.rounds = 0
        self.out = out
        self.puts = set(lines_of(os.path.join(out, 'puts')))
        root = os.path.join(out, 'facts')
        rows = []
        if os.path.isdir(root):
            for r in sorted(os.listdir(root), key=lambda x: int(x) if x.isdigit() else -1):
                self.rounds += 1
                d = os.path.join(root, r)
                for f in sorted(os.listdir(d)):
                    if f.startswith('facts'):
                        with open(os.path.join(d, f)) as fh:
                            rows.extend(l.rstrip('\n').split('\t') for l in fh)
        for r in rows:
            t, f = r[0], norm(r[1])
            if t == 'D':
                d = self.defs.setdefault((f, r[2]), {'line': int(r[3]), 'static': False, 'syscall': False})
                d['static'] |= r[4] == '1' and f.endswith('.c')
                d['syscall'] |= r[5] == '1'
            elif t == 'T':
                self.targets[(f, int(r[3]), int(r[4]))] = (r[2], r[5])
            elif t == 'X':
                self.frees[(f, int(r[3]), int(r[4]))] = (r[2], r[5], r[6])
            elif t == 'H':
                self.held[(f, int(r[3]), int(r[4]))].add((r[5], r[6], int(r[7])))
            elif t == 'B':
                self.before[(f, int(r[3]), int(r[4]))].add((r[5], int(r[6])))
            elif t == 'I':
                self.indirect[(f, int(r[3]), int(r[4]))].add((int(r[5]), r[6]))
            elif t == 'G':
                self.guards[(f, r[2])].add((int(r[3]), int(r[4]), r[5], r[6]))
            elif t == 'U':
                self.uses[(f, int(r[3]), int(r[4]))].add((r[2], r[5]))
            elif t == 'F':
                self.inits[(f, int(r[3]), int(r[4]))] = (r[6], r[7])
            elif t == 'A':
                self.argof[(f, int(r[3]), int(r[4]))] = (r[6], int(r[7]))
        for (f, name), d in self.defs.items():
            if not d['static']:
                self.globaldefs[name].add(f)

    def key(self, f, name):
        """The function a use of name in file f means."""
        d = self.defs.get((f, name))
        if d is not None and d['static']:
            return (f, name)
        return ('*', name)

    def is_syscall(self, k):
        if k[0] != '*':
            return self.defs.get(k, {}).get('syscall', False)
        return any(self.defs[(f, k[1])]['syscall'] for f in self.globaldefs.get(k[1], ()))


def norm(f):
    return f[2:] if f.startswith('./') else f


def fname(k, fx=None):
    if fx is not None and fx.is_syscall(k):
        return 'sys_%s()' % k[1]
    return '%s()' % k[1]


# ------------------------------------------------------------ the walk
def read_walk(out):
    """{key: level} of the functions whose callers a round looked for."""
    walk = {}
    for l in lines_of(os.path.join(out, 'walk')):
        f, name, level = l.split('\t')
        walk[(f, name)] = int(level)
    return walk


def calls_to(fx):
    """{callee key: [(caller key, target pos)]} from the target calls that
    are not synchronous puts."""
    edges = defaultdict(list)
    for pos, (fn, name) in fx.targets.items():
        if name in fx.puts:
            continue
        edges[fx.key(pos[0], name)].append((fx.key(pos[0], fn), pos))
    return edges


def sites(fx):
    s = [(pos, fn, name, 'call') for pos, (fn, name) in fx.targets.items() if name in fx.puts]
    s += [(pos, fn, cls, 'free') for pos, (fn, cls, var) in fx.frees.items()]
    return sorted(s)


def cmd_next(out):
    fx = Facts(out)
    walk = read_walk(out)
    level = max(walk.values()) + 1 if walk else 0
    edges = calls_to(fx)
    if not walk:
        new = {fx.key(pos[0], fn) for pos, fn, _, _ in sites(fx)}
    else:
        new = set()
        for k, lv in walk.items():
            if lv != level - 1:
                continue
            for caller, _ in edges.get(k, ()):
                if caller not in walk and not fx.is_syscall(caller):
                    new.add(caller)
    # A system call body is where the walk stops: nothing calls it.
    new = {k for k in new if not fx.is_syscall(k)}
    with open(os.path.join(out, 'walk'), 'a') as fh:
        for k in sorted(new):
            fh.write('%s\t%s\t%d\n' % (k[0], k[1], level))
    for k in sorted(new):
        print('%s\t%s' % (k[1], k[0]))


# ------------------------------------------------------------ guards
def cmd_guards(tree, path):
    locks = {r[0] for r in table('locks')}
    with open(path, encoding='utf-8', errors='replace') as fh:
        text = fh.read()
    out = {}
    for m in re.finditer(r'\b(DEFINE_(?:LOCK_)?GUARD(?:_[012])?(?:_COND(?:_[34])?)?)\s*\(', text):
        macro = m.group(1)
        # The arguments, up to the matching parenthesis.
        i, depth = m.end(), 1
        start, args = i, []
        while i < len(text) and depth:
            c = text[i]
            if c in '([{':
                depth += 1
            elif c in ')]}':
                depth -= 1
                if depth == 0:
                    break
            elif c == ',' and depth == 1:
                args.append(text[start:i].strip())
                start = i + 1
            i += 1
        args.append(text[start:i].strip())
        if not args or not IDENT.fullmatch(args[0]):
            continue    # the macro's own definition
        if '_COND' in macro:
            if len(args) < 3:
                continue
            name, lock = args[0] + args[1], args[2]
        elif macro == 'DEFINE_LOCK_GUARD_0':
            if len(args) < 2:
                continue
            name, lock = args[0], args[1]
        else:
            if len(args) < 3:
                continue
            name, lock = args[0], args[2]
        calls = re.findall(r'([A-Za-z_][A-Za-z0-9_]*)\s*\(', lock)
        fn = next((c for c in calls if c in locks), calls[0] if calls else '-')
        out[name] = fn
    for name in sorted(out):
        print('%s\t%s' % (name, out[name]))


# ------------------------------------------------------------ summaries
class Sums:
    def __init__(self, out):
        p = os.path.join(out, 'sum', 'summaries.json')
        self.ok = os.path.exists(p)
        self.s = json.load(open(p)) if self.ok else {'defs': {}, 'locked': {}, 'macros': []}
        self.macros = set(self.s.get('macros', ()))
        locks = table('locks')
        self.locks = {r[0] for r in locks}
        self.releases = set().union(*(set(r[1:]) for r in locks))

    def locked(self, f, g):
        """('ok'|'lock'|'unknown', why) for a call of g from file f."""
        k = '%s:%s' % (f, g)
        if k not in self.s['defs']:
            k = g if g in self.s['defs'] else None
        if k is None:
            if g in self.macros or g.startswith('__builtin_'):
                return 'ok', None
            return 'unknown', 'has no body in the tree'
        st = self.s['locked'].get(k, ['pending', 'no summary'])
        if st[0] == 'ok':
            return 'ok', None
        if st[0] == 'pending':
            return 'unknown', 'is not summarised (%s)' % st[1]
        if 'unknown' in st[1]:
            return 'unknown', 'may return with a lock held: %s' % st[1]
        return 'lock', st[1]


def skip_callee(g, puts):
    return g in CLEANUP or g in puts or g in ('fput', 'fget')


def cmd_callees(out):
    fx = Facts(out)
    puts = set(lines_of(os.path.join(out, 'puts')))
    locks = {r[0] for r in table('locks')}
    rel = set().union(*(set(r[1:]) for r in table('locks')))
    names = set()
    for s in fx.before.values():
        for g, _ in s:
            if not skip_callee(g, puts) and g not in locks and g not in rel:
                names.add(g)
    guards = dict(l.split('\t') for l in lines_of(os.path.join(out, 'guards')))
    for gs in fx.guards.values():
        for _, _, cls, _ in gs:
            fn = guards.get(cls)
            if fn and fn != '-' and fn not in locks:
                names.add(fn)
    for n in sorted(names):
        print(n)


def short_lock(expr):
    """A lock's name in the verdict: its expression without the '&'."""
    return re.sub(r'^&\s*', '', expr.replace(' ', ''))


# ------------------------------------------------------------ locks at a point
class Locks:
    def __init__(self, tree, out, fx, sums):
        self.tree, self.fx, self.sums = tree, fx, sums
        self.puts = set(lines_of(os.path.join(out, 'puts')))
        self.guardfn = dict(l.split('\t') for l in lines_of(os.path.join(out, 'guards')))

    def guard_held(self, pos, fn, free):
        """The guards of fn that hold their lock at pos (for a __free()
        variable: at the end of its scope, so only those taken before its
        declaration): [(class, arg text, line)]."""
        f = pos[0]
        src = Source.get(self.tree, f)
        t = src.off(pos[1], pos[2])
        out = []
        for line, col, cls, kind in sorted(self.fx.guards.get((f, fn), ())):
            o = src.off(line, col)
            if o >= t:
                continue
            p1 = src.next_tok(o + len(IDENT.match(src.skel, o).group(0)))
            if src.skel[p1:p1 + 1] != '(':
                continue
            head = src.args(p1)
            e1 = src.match.get(p1, p1)
            if kind in ('scoped', 'scoped_cond'):
                args = head[2:] if kind == 'scoped_cond' else head[1:]
                start = e1 + 1
                end = src.statement_end(start)
                if not (start <= t <= end):
                    continue
            else:
                if kind == 'guard' and src.skel[o:o + 7] == 'ACQUIRE':
                    cls = head[0] if head else cls
                p2 = src.next_tok(e1 + 1)
                args = src.args(p2) if src.skel[p2:p2 + 1] == '(' else []
                blk = src.enclosing_open(o)
                end = src.match.get(blk, len(src.skel)) if blk is not None else len(src.skel)
                if t > end:
                    continue
            out.append((cls, ', '.join(args), line))
        return out

    def at(self, pos, fn, free=False):
        """(named, unknown) at the target pos of function fn: named is
        [(text, short name)] (the locks of data/locks taken and not
        released on some path to pos, the lock guards whose scope holds
        pos), unknown [why]. With COCCI_AUDIT_CALLEES=1, a call before pos
        whose summary may return with a lock held, or an indirect call,
        adds an unknown (a callee never names a lock: the summaries'
        "may return with a lock held" is a may-analysis)."""
        named, unknown = [], []
        f = pos[0]
        for lk, expr, q in sorted(self.fx.held.get(pos, ()), key=lambda x: x[2]):
            named.append((expr, short_lock(expr)) if expr else ('%s()' % lk, lk))
        if free:
            src = Source.get(self.tree, f)
            if src.depth(src.off(pos[1], pos[2])) > 1:
                unknown.append((pos[1], 'the __free() variable is declared in an inner block, '
                                'whose end the audit does not analyse'))
        for cls, arg, line in self.guard_held(pos, fn, free):
            lf = self.guardfn.get(cls)
            text = ('%s (guard %s)' % (arg, cls)) if arg else 'guard(%s)' % cls
            if lf is None:
                unknown.append((line, 'guard %s at %s:%d: no DEFINE_*GUARD(%s) in the tree' % (cls, f, line, cls)))
            elif lf in self.sums.locks:
                named.append((text, short_lock(arg) if arg else cls))
            else:
                unknown.append((line, 'guard %s at %s:%d: its lock part %s() is not in data/locks'
                                % (cls, f, line, lf)))
        if CALLEES:
            for g, q in sorted(self.fx.before.get(pos, ()), key=lambda x: (x[1], x[0])):
                if skip_callee(g, self.puts) or g in self.sums.locks or g in self.sums.releases:
                    continue
                st, why = self.sums.locked(f, g)
                if st != 'ok':
                    unknown.append((q, '%s() at %s:%d %s' % (
                        g, f, q, why if st == 'unknown' else 'may return with a lock held: ' + why)))
            for q, what in sorted(self.fx.indirect.get(pos, ())):
                unknown.append((q, '%s at %s:%d' % (what, f, q)))
        seen, uniq = set(), []
        for n in named:
            if n[0] not in seen:
                seen.add(n[0])
                uniq.append(n)
        return uniq, [w for _, w in sorted(unknown)]


# ------------------------------------------------------------ contexts
class Entry:
    def __init__(self):
        self.ctx = defaultdict(set)   # context -> {entry point}
        self.why = []                 # why a way in is unknown
        self.locks = []               # (text, short, file) held by callers
        self.lwhy = []                # why the callers' locks are unknown
        self.cyclic = False


class Walk:
    def __init__(self, tree, out, fx, locks):
        self.tree, self.out, self.fx, self.locks = tree, out, fx, locks
        self.walk = read_walk(out)
        self.edges = calls_to(fx)
        self.memo = {}
        self.entries = {}
        for r in table('entries'):
            ctx = ' '.join(r[3:]).replace('_', ' ')
            self.entries[(r[0], r[1], r[2])] = ctx
        # Address uses and the lines git grep finds that spatch did not.
        self.addr = defaultdict(list)   # key -> [(pos, fn of the use)]
        calls = set(fx.targets)
        for pos, us in fx.uses.items():
            if pos in calls:
                continue
            for fn, name in us:
                self.addr[fx.key(pos[0], name)].append((pos, fn))
        self.unseen = defaultdict(list)  # key -> [why]
        self.exported = set()
        self._unseen()

    def _unseen(self):
        fx = self.fx
        seen_lines = {(p[0], p[1]) for p in fx.uses}
        def_lines = {(f, d['line']) for (f, _), d in fx.defs.items()}
        gave = set(lines_of(os.path.join(self.out, 'gaveup')))
        grepdir = os.path.join(self.out, 'grep')
        wanted = {}
        for k in self.walk:
            wanted.setdefault(k[1], []).append(k)
        if not os.path.isdir(grepdir):
            return
        for r in os.listdir(grepdir):
            for l in lines_of(os.path.join(grepdir, r)):
                f, n, text = l.split(':', 2)
                f, n = norm(f), int(n)
                for name, ks in wanted.items():
                    if not re.search(r'\b%s\b' % re.escape(name), text):
                        continue
                    k = fx.key(f, name)
                    if k not in ks:
                        continue
                    if (f, n) in seen_lines or (f, n) in def_lines:
                        continue
                    why = unseen_why(self.tree, f, n, text, name, gave)
                    if why == 'export':
                        self.exported.add(k)
                    elif why:
                        self.unseen[k].append(why)

    def classify(self, pos, fn, k):
        """The context of an address use, or None and why not."""
        if pos in self.fx.inits:
            st, fld = self.fx.inits[pos]
            ctx = self.entries.get(('field', st, fld))
            if ctx:
                return ctx, '%s.%s' % (st, fld), None
            return None, None, 'the address of %s() is stored in %s.%s at %s:%d' % (k[1], st, fld, pos[0], pos[1])
        if pos in self.fx.argof:
            r, n = self.fx.argof[pos]
            if EXPORT.match(r + '('):
                return 'export', None, None
            ctx = self.entries.get(('arg', r, str(n)))
            if ctx:
                return ctx, '%s()' % r, None
            return None, None, '%s() is passed to %s() at %s:%d' % (k[1], r, pos[0], pos[1])
        # What spatch did not parse as a call or an initialiser (a
        # "static DECLARE_WORK(w, fn);" at file scope), read from the text.
        src = Source.get(self.tree, pos[0])
        o = src.off(pos[1], pos[2])
        r, n = src.call_arg(o)
        if r is not None:
            if EXPORT.match(r + '('):
                return 'export', None, None
            ctx = self.entries.get(('arg', r, str(n)))
            if ctx:
                return ctx, '%s()' % r, None
            return None, None, '%s() is passed to %s() at %s:%d' % (k[1], r, pos[0], pos[1])
        return None, None, 'the address of %s() is taken at %s:%d' % (k[1], pos[0], pos[1])

    def entry(self, k, stack=()):
        if k in self.memo:
            return self.memo[k]
        e = Entry()
        if k in stack:
            e.cyclic = True
            return e
        fx = self.fx
        if fx.is_syscall(k):
            e.ctx['user task'].add(fname(k, fx))
            self.memo[k] = e
            return e
        if k not in self.walk:
            why = 'callers of %s() not followed (COCCI_AUDIT_DEPTH=%d)' % (k[1], DEPTH)
            e.why.append((0, why))
            self.memo[k] = e
            return e
        for pos, fn in sorted(self.addr.get(k, ())):
            ctx, via, why = self.classify(pos, fn, k)
            if ctx == 'export':
                self.exported.add(k)
            elif ctx:
                e.ctx[ctx].add(via)
            else:
                e.why.append((0, why))
        for caller, pos in sorted(self.edges.get(k, ()), key=lambda x: x[1]):
            named, unknown = self.locks.at(pos, caller[1])
            for text, short in named:
                e.locks.append(('%s in %s at %s:%d' % (text, fname(caller, fx), pos[0], pos[1]), short))
            e.lwhy.extend((0, w) for w in unknown)
            sub = self.entry(caller, stack + (k,))
            e.cyclic |= sub.cyclic
            for c, vias in sub.ctx.items():
                e.ctx[c] |= vias
            # A reason further up the callers comes after a nearer one.
            e.why.extend((d + 1, w) for d, w in sub.why)
            e.locks.extend(sub.locks)
            e.lwhy.extend((d + 1, w) for d, w in sub.lwhy)
        e.why.extend((0, w) for w in self.unseen.get(k, ()))
        if not e.ctx and not e.why and not e.cyclic:
            e.why.append((0, 'no caller of %s() in the tree%s' % (
                k[1], ' (exported)' if k in self.exported else '')))
        if not e.cyclic:
            self.memo[k] = e
        return e


def mentions(text, name):
    """Whether a line names name outside a comment, a string and a field
    (->name, .name)."""
    t = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'', '""', text)
    t = re.sub(r'/\*.*?(\*/|$)|//.*', '', t)
    return re.search(r'(?<!->)(?<!\.)\b%s\b' % re.escape(name), t) is not None


def unseen_why(tree, f, n, text, name, gave):
    """Why a git grep line of name is no call or use the walk must follow:
    None (a comment, a declaration), 'export', or the reason it makes the
    callers unknown."""
    s = text.strip()
    if s.startswith(('*', '/*')) or not mentions(text, name):
        return None     # in a comment or a string, or a struct field
    if EXPORT.match(text):
        return 'export'
    if re.match(r'^\s*#\s*define\b', text) or text.rstrip().endswith('\\'):
        return '%s() is used in a macro at %s:%d' % (name, f, n)
    if re.match(r'^[A-Za-z_].*\b%s\s*\(' % re.escape(name), text) and '=' not in text.split(name)[0]:
        return None     # a declaration (or a definition spatch did not parse)
    if f in gave:
        return 'spatch gave up on %s, which uses %s() at line %d' % (f, name, n)
    return '%s() is used at %s:%d, which spatch did not analyse' % (name, f, n)


# ------------------------------------------------------------ rows
def reasons(whys):
    """The reasons, nearest first, each once."""
    out = []
    for _, w in sorted(whys, key=lambda x: x[0]):
        if w not in out:
            out.append(w)
    return out


def unknown(ws):
    return 'unknown (%s%s)' % (ws[0], '; and %d more' % (len(ws) - 1) if len(ws) > 1 else '')


def combine_ctx(e):
    if e.why:
        return unknown(reasons(e.why))
    kinds = sorted(e.ctx)
    if len(kinds) == 1:
        return kinds[0]
    if not kinds:
        return 'unknown (reached only from itself)'
    return 'unknown (mixed: %s)' % '; '.join(
        '%s via %s' % (c, ', '.join(sorted(e.ctx[c]))) for c in kinds)


def cmd_rows(out, tree):
    fx = Facts(out)
    sums = Sums(out)
    locks = Locks(tree, out, fx, sums)
    walk = Walk(tree, out, fx, locks)
    form = os.environ.get('COCCI_AUDIT', 'plain')
    puts = lines_of(os.path.join(out, 'puts'))
    classes = lines_of(os.path.join(out, 'free'))
    rows = []
    counts = {'free': 0, 'lock': 0, 'unknown': 0}
    under = defaultdict(set)
    site_lines = set()
    for pos, fn, name, kind in sites(fx):
        f = pos[0]
        k = fx.key(f, fn)
        site_lines.add((f, pos[1]))
        named, lunknown = locks.at(pos, fn, free=(kind == 'free'))
        e = walk.entry(k)
        ctx = combine_ctx(e)
        allnamed = named + e.locks
        uw = reasons([(-1, w) for w in lunknown] + e.lwhy)
        if e.why:
            uw.append('not every way into %s() is seen (see the context)' % k[1])
        seen, texts = set(), []
        for t, short in allnamed:
            if t not in seen:
                seen.add(t)
                texts.append(t)
                under[f].add(short)
        if texts:
            lk = ', '.join(texts)
            if uw:
                lk += '; maybe more: ' + unknown(uw)
            counts['lock'] += 1
        elif uw:
            lk = unknown(uw)
            counts['unknown'] += 1
        else:
            lk = 'none'
            counts['free'] += 1
        where = '%s:%d' % (f, pos[1])
        func = fname(k, fx) if kind == 'call' else '%s() __free(%s)' % (k[1], name)
        if kind == 'free' and fx.is_syscall(k):
            func = '%s __free(%s)' % (fname(k, fx), name)
        rows.append((where, func, ctx, lk))
    # Every git grep line: a site, or why not.
    acc = []
    lost = 0
    gave = set(lines_of(os.path.join(out, 'gaveup')))
    grep = lines_of(os.path.join(out, 'grep.sites'))
    for l in grep:
        f, n, text = l.split(':', 2)
        f, n = norm(f), int(n)
        if (f, n) in site_lines:
            continue
        why = site_why(f, n, text, puts, classes, gave)
        if why.startswith('unaccounted'):
            lost += 1
        acc.append('%s:%d: %s' % (f, n, why))
    nsites = len(rows)
    if form == 'table':
        print('| site | function | context | locks held at the put |')
        print('|------|----------|---------|-----------------------|')
        for r in rows:
            print('| %s |' % ' | '.join(x.replace('|', '\\|') for x in r))
        print()
    else:
        for r in rows:
            print('  '.join(r))
    for a in acc:
        print(a)
    lockdesc = '; '.join('%s: %s' % (f, ', '.join(sorted(s))) for f, s in sorted(under.items()))
    pat = '|'.join(['%s(' % p for p in puts] + ['__free(%s)' % c for c in classes])
    print('cocci-report: audit: %d synchronous puts: %d lock-free, %d under a lock%s, %d unknown; '
          'git grep "%s": %d lines, %d sites, %d not sites, %d unaccounted'
          % (nsites, counts['free'], counts['lock'], ' (%s)' % lockdesc if lockdesc else '',
             counts['unknown'], pat, len(grep), nsites, len(acc) - lost, lost))
    if nsites + len(acc) != len(grep) or lost:
        print('cocci-report: audit: %d sites and %d other lines for %d git grep lines, %d unaccounted'
              % (nsites, len(acc), len(grep), lost))
        return 1
    return 0


def site_why(f, n, text, puts, classes, gave):
    s = text.strip()
    name = next((p for p in puts if re.search(r'\b%s\s*\(' % p, text)), puts[0] if puts else '')
    m = re.search(r'\bDEFINE_FREE\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)', text)
    if m:
        return 'not a site: the cleanup class %s, whose __free(%s) variables are the sites' % (m.group(1), m.group(1))
    if s.startswith(('*', '/*', '//')) or re.search(r'(/\*|//)[^\n]*\b%s\b' % re.escape(name), text):
        return 'not a call: in a comment'
    if re.match(r'^\s*#\s*define\b', text) or text.rstrip().endswith('\\'):
        return 'not analysed: in a macro definition (macro bodies are not parsed)'
    if re.match(r'^[A-Za-z_].*[^A-Za-z0-9_]%s\s*\(' % re.escape(name), text) or \
            re.match(r'^%s\s*\(' % re.escape(name), text):
        return 'not a call: the declaration or definition of %s()' % name
    if f in gave:
        return 'unaccounted: spatch gave up on %s after %s s (COCCI_TIMEOUT)' % (f, os.environ.get('COCCI_TIMEOUT', '120'))
    return 'unaccounted: spatch did not see this call'


def cmd_classes(grep, tree):
    puts = [r[0] for r in table('sync-puts')]
    out = set()
    for l in lines_of(grep):
        f, n, text = l.split(':', 2)
        cand = text
        if 'DEFINE_FREE' not in text:
            # A DEFINE_FREE() may start on an earlier line.
            try:
                src = open(os.path.join(tree, f), encoding='utf-8', errors='replace').read().split('\n')
                cand = '\n'.join(src[max(0, int(n) - 4):int(n)])
            except OSError:
                continue
        for m in re.finditer(r'\bDEFINE_FREE\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*,', cand):
            if any(re.search(r'\b%s\s*\(' % p, cand[m.end():]) for p in puts):
                out.add(m.group(1))
    for c in sorted(out):
        print(c)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    cmd = argv[1]
    if cmd == 'classes':
        cmd_classes(argv[2], argv[3])
    elif cmd == 'next':
        cmd_next(argv[2])
    elif cmd == 'guards':
        cmd_guards(argv[2], argv[3])
    elif cmd == 'callees':
        cmd_callees(argv[2])
    elif cmd == 'rows':
        return cmd_rows(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    try:
        rc = main(sys.argv)
    except Exception:       # a bug, not a verdict: audit.sh says so
        import traceback
        traceback.print_exc()
        rc = 2
    sys.exit(rc)
