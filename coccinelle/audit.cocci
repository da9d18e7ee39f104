// SPDX-License-Identifier: GPL-2.0-only
/// The audit of the synchronous final puts (coccinelle/audit.sh): write out
/// the facts audit.py decides each site's context and locks with. For every
/// call of a target (a synchronous put in the first round, then the
/// functions whose callers the walk looks for) and every declaration of a
/// __free() variable of a class whose destructor is a synchronous put:
/// where it is and in which function, and the locks of data/locks taken
/// before it on some path and not released on that path (for a __free()
/// variable: still held at the end of the function, where the put runs,
/// on a path that does not hand the variable on); the cleanup.h lock guards
/// of every function (guard(), ACQUIRE(), scoped_guard(),
/// scoped_cond_guard(): audit.py reads their scope from the source). For
/// the targets of the walk, every other use of the name too: an initialiser
/// ".field = name" of a struct variable (with the struct's type), an
/// argument of a call (with the callee and the argument's index), anything
/// else. With -D callees, also the calls and indirect calls before each
/// target (audit.py asks the summaries whether one may return with a lock
/// held).
//
// Confidence: Moderate
// Copyright: (C) 2026 The safer-fput project. GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: __fput_sync, fput_close_sync, audit, locks, guard, cleanup.h
//
// Notes: environment AUDIT_FACTS names the directory the facts go to,
// AUDIT_TARGETS a file of the target names (one a line), AUDIT_FREE a file
// of the __free() classes whose destructor is a synchronous put,
// SAFER_FPUT_DATA the directory of data/locks. spatch needs
// coccinelle/audit-macros.h (after macros.h) to parse the scoped_*() forms.
// A release is matched by its lock expression (mutex_unlock(E) for
// mutex_lock(E)); an alias of the lock (another expression naming the same
// lock) is not recognised, nor a function that releases a lock its caller
// took; a conditional acquire (mutex_trylock(), mutex_lock_killable()) in a
// condition counts as taken on both of its branches. Function-like macros
// are not expanded.

virtual audit
virtual callees

@initialize:python@
@@
import linecache
import os
import re

FACTS = os.environ.get('AUDIT_FACTS', '.')
DATA = os.environ.get('SAFER_FPUT_DATA', '.')
_out = [None]


def emit(*fields):
    if _out[0] is None:
        _out[0] = open(os.path.join(FACTS, 'facts.%d' % os.getpid()), 'a')
    _out[0].write('\t'.join(str(f) for f in fields) + '\n')
    _out[0].flush()


def names(var):
    p = os.environ.get(var)
    if not p:
        return set()
    with open(p) as fh:
        return {l.strip() for l in fh if l.strip()}


def table(name):
    rows = []
    with open(os.path.join(DATA, name)) as fh:
        for line in fh:
            w = line.partition(chr(35))[0].split()
            if w:
                rows.append(w)
    return rows


TARGETS = names('AUDIT_TARGETS')
FREE = names('AUDIT_FREE')
LOCKS = {r[0]: set(r[1:]) for r in table('locks')}
RELEASES = set().union(*LOCKS.values())
DISARM = ('no_free_ptr', 'return_ptr', 'retain_and_null_ptr')
_free_re = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)\s*__free\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)')


def free_decl(p):
    """(variable, class) of the __free() declaration at p, if its class is
    one of FREE."""
    line = linecache.getline(p[0].file, int(p[0].line))
    for m in _free_re.finditer(line):
        if m.group(2) in FREE:
            return m.group(1), m.group(2)
    return None


def freevar(p):
    d = free_decl(p)
    return d[0] if d else None


def src(p):
    """The source text at position p (one expression)."""
    l0, c0 = int(p[0].line), int(p[0].column)
    l1, c1 = int(p[0].line_end), int(p[0].column_end)
    lines = [linecache.getline(p[0].file, n) for n in range(l0, l1 + 1)]
    if l0 == l1:
        t = lines[0][c0:c1]
    else:
        t = lines[0][c0:] + ''.join(lines[1:-1]) + lines[-1][:c1]
    return ' '.join(t.split())


def is_syscall(s):
    line = linecache.getline(s[0].file, int(s[0].line)).lstrip()
    return int(line.startswith(('SYSCALL_DEFINE', 'COMPAT_SYSCALL_DEFINE')))


_sys0 = re.compile(r'^\s*((COMPAT_)?SYSCALL_DEFINE0)\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)')


def fn_name(fl, name, line):
    """The name of the function that spatch calls name at line: a
    SYSCALL_DEFINE0(x) parses as a function called SYSCALL_DEFINE0 (a
    prototype, which macros.h cannot expand); its name is x."""
    if name not in ('SYSCALL_DEFINE0', 'COMPAT_SYSCALL_DEFINE0'):
        return name
    for n in range(int(line), 0, -1):
        m = _sys0.match(linecache.getline(fl, n))
        if m:
            return m.group(3)
    return name


def at(p):
    return (p[0].file, fn_name(p[0].file, p[0].current_element, p[0].line),
            p[0].line, p[0].column)

// ------------------------------------------------------------ definitions
@def@
identifier fn;
position s;
@@
fn@s(...) { ... }

@script:python@
fn << def.fn;
s << def.s;
@@
emit('D', s[0].file, fn_name(s[0].file, fn, s[0].line), s[0].line, 0, is_syscall(s))

@sdef@
identifier fn;
type T;
position s;
@@
static T fn@s(...) { ... }

@script:python@
fn << sdef.fn;
s << sdef.s;
@@
emit('D', s[0].file, fn_name(s[0].file, fn, s[0].line), s[0].line, 1, is_syscall(s))

// ------------------------------------------------------------ targets
@tgt@
identifier t : script:python() { str(t) in TARGETS };
position p;
@@
t@p(...)

@script:python@
t << tgt.t;
p << tgt.p;
@@
f, fn, line, col = at(p)
emit('T', f, fn, line, col, t)

// A __free() variable of a class whose destructor is a synchronous put: the
// put runs where the variable goes out of scope. (spatch 1.1.1 takes the
// attribute for the declarator; free_decl() reads the name from the line.)
@fdecl@
type T;
identifier x;
expression E0;
position pd;
@@
T x@pd = E0;

@script:python@
pd << fdecl.pd;
@@
d = free_decl(pd)
if d is None:
    cocci.include_match(False)
else:
    f, fn, line, col = at(pd)
    emit('X', f, fn, line, col, d[1], d[0])

// ------------------------------------------------------------ locks
@acq@
identifier L : script:python() { str(L) in LOCKS };
position q;
@@
L@q(...)

// A lock taken on some path before the target and not released on it.
@held exists@
identifier acq.L;
position acq.q;
identifier t : script:python() { str(t) in TARGETS };
identifier rr : script:python(L) { str(rr) in LOCKS.get(str(L), ()) };
expression E;
position p, pe;
@@
L@q(E@pe, ...)
... when != rr(E, ...)
    when any
t@p(...)

@script:python@
L << acq.L;
q << acq.q;
pe << held.pe;
p << held.p;
@@
f, fn, line, col = at(p)
emit('H', f, fn, line, col, L, src(pe), q[0].line)

@held0 exists@
identifier acq.L;
position acq.q;
identifier t : script:python() { str(t) in TARGETS };
identifier rr : script:python(L) { str(rr) in LOCKS.get(str(L), ()) };
position p;
@@
L@q()
... when != rr(...)
    when any
t@p(...)

@script:python@
L << acq.L;
q << acq.q;
p << held0.p;
@@
f, fn, line, col = at(p)
emit('H', f, fn, line, col, L, '', q[0].line)

// The same for a __free() variable: held at the end of the function, on a
// path through the declaration that does not hand the variable on
// (no_free_ptr(), return_ptr(), retain_and_null_ptr()): taken after the
// declaration, or before it and not released since.
@fheld_a exists@
position fdecl.pd;
identifier acq.L;
position acq.q;
identifier rr : script:python(L) { str(rr) in LOCKS.get(str(L), ()) };
identifier v : script:python(pd) { str(v) == freevar(pd) };
identifier dis : script:python() { str(dis) in DISARM };
type T;
identifier x, fn;
expression E0, E;
position pe;
@@
fn(...) { ... when any
T x@pd = E0;
... when != dis(v)
L@q(E@pe, ...)
... when != rr(E, ...)
    when != dis(v)
}

@script:python@
L << acq.L;
q << acq.q;
pe << fheld_a.pe;
pd << fdecl.pd;
@@
f, fn, line, col = at(pd)
emit('H', f, fn, line, col, L, src(pe), q[0].line)

@fheld_b exists@
position fdecl.pd;
identifier acq.L;
position acq.q;
identifier rr : script:python(L) { str(rr) in LOCKS.get(str(L), ()) };
identifier v : script:python(pd) { str(v) == freevar(pd) };
identifier dis : script:python() { str(dis) in DISARM };
type T;
identifier x, fn;
expression E0, E;
position pe;
@@
fn(...) { ... when any
L@q(E@pe, ...)
... when != rr(E, ...)
T x@pd = E0;
... when != rr(E, ...)
    when != dis(v)
}

@script:python@
L << acq.L;
q << acq.q;
pe << fheld_b.pe;
pd << fdecl.pd;
@@
f, fn, line, col = at(pd)
emit('H', f, fn, line, col, L, src(pe), q[0].line)

@fheld_a0 exists@
position fdecl.pd;
identifier acq.L;
position acq.q;
identifier rr : script:python(L) { str(rr) in LOCKS.get(str(L), ()) };
identifier v : script:python(pd) { str(v) == freevar(pd) };
identifier dis : script:python() { str(dis) in DISARM };
type T;
identifier x, fn;
expression E0;
position pl;
@@
fn(...) { ... when any
T x@pd = E0;
... when != dis(v)
L@q@pl()
... when != rr(...)
    when != dis(v)
}

@script:python@
L << acq.L;
q << acq.q;
pd << fdecl.pd;
pl << fheld_a0.pl;
@@
f, fn, line, col = at(pd)
emit('H', f, fn, line, col, L, '', q[0].line)

@fheld_b0 exists@
position fdecl.pd;
identifier acq.L;
position acq.q;
identifier rr : script:python(L) { str(rr) in LOCKS.get(str(L), ()) };
identifier v : script:python(pd) { str(v) == freevar(pd) };
identifier dis : script:python() { str(dis) in DISARM };
type T;
identifier x, fn;
expression E0;
position pl;
@@
fn(...) { ... when any
L@q@pl()
... when != rr(...)
T x@pd = E0;
... when != rr(...)
    when != dis(v)
}

@script:python@
L << acq.L;
q << acq.q;
pd << fdecl.pd;
pl << fheld_b0.pl;
@@
f, fn, line, col = at(pd)
emit('H', f, fn, line, col, L, '', q[0].line)

// With -D callees (COCCI_AUDIT_CALLEES=1): the calls and indirect calls
// before the target on some path, whose callees may return with a lock
// held (audit.py asks the summaries).
@cb depends on callees exists@
identifier g;
identifier t : script:python() { str(t) in TARGETS };
position q, p;
@@
g@q(...)
... when any
t@p(...)

@script:python@
g << cb.g;
q << cb.q;
p << cb.p;
@@
f, fn, line, col = at(p)
emit('B', f, fn, line, col, g, q[0].line)

@fcb_a depends on callees exists@
position fdecl.pd;
identifier v : script:python(pd) { str(v) == freevar(pd) };
identifier dis : script:python() { str(dis) in DISARM };
identifier g;
type T;
identifier x, fn;
expression E0;
position q;
@@
fn(...) { ... when any
T x@pd = E0;
... when != dis(v)
g@q(...)
... when != dis(v)
}

@script:python@
g << fcb_a.g;
q << fcb_a.q;
pd << fdecl.pd;
@@
f, fn, line, col = at(pd)
emit('B', f, fn, line, col, g, q[0].line)

@fcb_b depends on callees exists@
position fdecl.pd;
identifier v : script:python(pd) { str(v) == freevar(pd) };
identifier dis : script:python() { str(dis) in DISARM };
identifier g;
type T;
identifier x, fn;
expression E0;
position q;
@@
fn(...) { ... when any
g@q(...)
... when any
T x@pd = E0;
... when != dis(v)
}

@script:python@
g << fcb_b.g;
q << fcb_b.q;
pd << fdecl.pd;
@@
f, fn, line, col = at(pd)
emit('B', f, fn, line, col, g, q[0].line)

@ib depends on callees exists@
expression E;
identifier fld;
local idexpression fp;
identifier t : script:python() { str(t) in TARGETS };
position p, q;
@@
(
E->fld@q(...)
|
E.fld@q(...)
|
 (*E)@q(...)
|
fp@q(...)
)
... when any
t@p(...)

@script:python@
fld << ib.fld = "";
q << ib.q;
p << ib.p;
@@
f, fn, line, col = at(p)
emit('I', f, fn, line, col, q[0].line, 'indirect call' + (' through ->%s' % fld if fld else ''))

@fib_a depends on callees exists@
position fdecl.pd;
identifier v : script:python(pd) { str(v) == freevar(pd) };
identifier dis : script:python() { str(dis) in DISARM };
type T;
identifier x, fn;
expression E0, E;
identifier fld;
local idexpression fp;
position q;
@@
fn(...) { ... when any
T x@pd = E0;
... when != dis(v)
(
E->fld@q(...)
|
E.fld@q(...)
|
 (*E)@q(...)
|
fp@q(...)
)
... when != dis(v)
}

@script:python@
fld << fib_a.fld = "";
q << fib_a.q;
pd << fdecl.pd;
@@
f, fn, line, col = at(pd)
emit('I', f, fn, line, col, q[0].line, 'indirect call' + (' through ->%s' % fld if fld else ''))

@fib_b depends on callees exists@
position fdecl.pd;
identifier v : script:python(pd) { str(v) == freevar(pd) };
identifier dis : script:python() { str(dis) in DISARM };
type T;
identifier x, fn;
expression E0, E;
identifier fld;
local idexpression fp;
position q;
@@
fn(...) { ... when any
(
E->fld@q(...)
|
E.fld@q(...)
|
 (*E)@q(...)
|
fp@q(...)
)
... when any
T x@pd = E0;
... when != dis(v)
}

@script:python@
fld << fib_b.fld = "";
q << fib_b.q;
pd << fdecl.pd;
@@
f, fn, line, col = at(pd)
emit('I', f, fn, line, col, q[0].line, 'indirect call' + (' through ->%s' % fld if fld else ''))

// ------------------------------------------------------------ guards
@gd@
identifier G;
position p;
@@
guard@p(G)(...)

@script:python@
G << gd.G;
p << gd.p;
@@
f, fn, line, col = at(p)
emit('G', f, fn, line, col, G, 'guard')

@gacq@
identifier G, v;
position p;
@@
ACQUIRE@p(G, v)(...)

@script:python@
G << gacq.G;
p << gacq.p;
@@
f, fn, line, col = at(p)
emit('G', f, fn, line, col, G, 'guard')

@gscoped@
iterator name scoped_guard;
identifier G;
statement S;
position p;
@@
scoped_guard@p(G, ...) S

@script:python@
G << gscoped.G;
p << gscoped.p;
@@
f, fn, line, col = at(p)
emit('G', f, fn, line, col, G, 'scoped')

@gcond@
iterator name scoped_cond_guard;
identifier G;
statement S;
position p;
@@
scoped_cond_guard@p(G, ...) S

@script:python@
G << gcond.G;
p << gcond.p;
@@
f, fn, line, col = at(p)
emit('G', f, fn, line, col, G, 'scoped_cond')

// ------------------------------------------------------------ other uses
@use@
identifier w : script:python() { str(w) in TARGETS };
position p;
@@
w@p

@script:python@
w << use.w;
p << use.p;
@@
f, fn, line, col = at(p)
emit('U', f, fn, line, col, w)

@init@
identifier w : script:python() { str(w) in TARGETS };
identifier I, fld, T;
position p;
@@
(
struct T I = { ..., .fld = w@p, ... };
|
struct T I[] = { ..., { ..., .fld = w@p, ... }, ... };
)

@script:python@
w << init.w;
T << init.T;
fld << init.fld;
p << init.p;
@@
f, fn, line, col = at(p)
emit('F', f, fn, line, col, w, T, fld)

@arg@
identifier w : script:python() { str(w) in TARGETS };
identifier R;
expression list[n] es;
position p;
@@
R(es, w@p, ...)

@script:python@
w << arg.w;
R << arg.R;
n << arg.n;
p << arg.p;
@@
f, fn, line, col = at(p)
emit('A', f, fn, line, col, w, R, n)
