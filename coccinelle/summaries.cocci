// SPDX-License-Identifier: GPL-2.0-only
/// Pass 1 of the safer-fput analysis: write out the facts of every function
/// defined in the files scanned, for the summaries fdget.cocci and
/// fput_nodefer.cocci decide with. Per function: its definition (static or
/// not), every direct call, every indirect call, every CLONE_FILES, each
/// struct file * parameter and how each use of it looks (dereference, NULL
/// test, argument N of a call, address of a field, anything else), the lock
/// acquires with a path to the end of the function that does not release
/// them, and the calls with a path to the end that releases nothing.
/// The finalize rule computes from the facts of all rounds, to a fixpoint:
///  - borrows(F, N): F's parameter N is not stored, returned, put, or
///    handed to a callee that does not borrow it;
///  - fdtable(F): F calls, directly or through callees, something that
///    changes the fd table (data/fdtable) or spawns with CLONE_FILES;
///  - locked(F): F may return with a lock (data/locks) held;
/// and what each undecided function still needs: the callees whose bodies
/// the next round must scan (coccinelle/summaries.sh drives the rounds).
/// An indirect call, or a callee with no body in the tree, is unknown, and
/// unknown never counts as safe.
//
// Confidence: High
// Copyright: (C) 2026 The safer-fput project. GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: fget, fput, fdget, summaries, interprocedural
//
// Notes: environment SAFER_FPUT_FACTS names the directory the facts go to,
// SAFER_FPUT_DATA the directory of data/locks, data/fdtable, data/installs
// and data/puts, SAFER_FPUT_SOLVE (when set) the directory of the facts of
// all rounds, and then summaries.json and wanted are written there.
// Function-like macros are not expanded: their bodies are not analysed, the
// calls in their arguments are.

virtual facts
virtual wrappers

@initialize:python@
@@
import linecache
import os

FACTS = os.environ.get('SAFER_FPUT_FACTS', '.')
DATA = os.environ.get('SAFER_FPUT_DATA', '.')
_out = [None]


def emit(*fields):
    if _out[0] is None:
        _out[0] = open(os.path.join(FACTS, 'facts.%d' % os.getpid()), 'a')
    _out[0].write('\t'.join(str(f) for f in fields) + '\n')
    _out[0].flush()


def table(name):
    """Lines of data/NAME split in words, comments and blanks dropped."""
    rows = []
    with open(os.path.join(DATA, name)) as fh:
        for line in fh:
            w = line.partition(chr(35))[0].split()
            if w:
                rows.append(w)
    return rows


LOCKS = {r[0]: set(r[1:]) for r in table('locks')}
RELEASES = set().union(*LOCKS.values())
WRAPPERS = set()
UNLOCKERS = set()
if os.environ.get('SAFER_FPUT_WRAPPERS'):
    with open(os.environ['SAFER_FPUT_WRAPPERS']) as fh:
        WRAPPERS = {l.strip() for l in fh if l.strip()}
    with open(os.environ['SAFER_FPUT_WRAPPERS'] + '.unlock') as fh:
        UNLOCKERS = {l.strip() for l in fh if l.strip()}


def is_syscall(s):
    # SYSCALL_DEFINEn(name, ...) is parsed as a function called name
    # (macros.h): tell it from a helper of that name by its first word.
    line = linecache.getline(s[0].file, int(s[0].line)).lstrip()
    return int(line.startswith(('SYSCALL_DEFINE', 'COMPAT_SYSCALL_DEFINE')))


def where(p):
    return (p[0].file, p[0].current_element, p[0].line, p[0].column)

// ------------------------------------------------------------ definitions
@def depends on facts@
identifier fn;
position s;
@@
fn@s(...) { ... }

@script:python@
fn << def.fn;
s << def.s;
@@
emit('D', s[0].file, fn, s[0].line, 0, is_syscall(s))

@sdef depends on facts@
identifier fn;
type T;
position s;
@@
static T fn@s(...) { ... }

@script:python@
fn << sdef.fn;
s << sdef.s;
@@
emit('D', s[0].file, fn, s[0].line, 1, is_syscall(s))

// ------------------------------------------------------------ calls
@call depends on facts@
identifier g;
position q;
@@
g@q(...)

@script:python@
g << call.g;
q << call.q;
@@
f, fn, line, col = where(q)
emit('C', f, fn, g, line, col)

@lcall depends on facts@
local idexpression fp;
position q;
@@
fp@q(...)

@script:python@
q << lcall.q;
@@
f, fn, line, col = where(q)
emit('I', f, fn, line, 'call through a local function pointer')

@icall depends on facts@
expression E;
identifier fld;
position q;
@@
(
E->fld@q(...)
|
E.fld@q(...)
|
 (*E)@q(...)
)

@script:python@
fld << icall.fld = "";
q << icall.q;
@@
f, fn, line, col = where(q)
emit('I', f, fn, line, 'indirect call' + (' through ->%s' % fld if fld else ''))

@clone depends on facts@
position q;
@@
CLONE_FILES@q

@script:python@
q << clone.q;
@@
f, fn, line, col = where(q)
emit('K', f, fn, line)

// ------------------------------------------------------------ locks
@acq depends on facts@
identifier lk;
position q;
@@
lk@q(...)

@script:python@
lk << acq.lk;
@@
if str(lk) not in LOCKS:
    cocci.include_match(False)

// An acquire with a path to the end of the function that does not release.
@unrel depends on facts exists@
identifier acq.lk;
position acq.q;
identifier fn;
identifier rr : script:python(lk) { str(rr) in LOCKS.get(str(lk), ()) };
expression E;
statement S1, S2;
@@
fn(...) { ... when any
(
lk@q(...);
|
E = lk@q(...);
|
if (<+... lk@q(...) ...+>) S1 else S2
|
if (<+... lk@q(...) ...+>) S1
|
return <+... lk@q(...) ...+>;
)
... when != rr(...)
}

@script:python@
lk << acq.lk;
q << acq.q;
fn << unrel.fn;
@@
f, fn, line, col = where(q)
emit('F', f, fn, lk, line)

// In a wrappers round: a call of a function known to return with a lock
// held (SAFER_FPUT_WRAPPERS, one name a line) that has a path to the end of
// the function that releases nothing makes this function one too. A call of
// a function that calls a release (SAFER_FPUT_WRAPPERS.unlock) counts as a
// release.
@other depends on wrappers@
identifier g;
position q;
@@
g@q(...)

@script:python@
g << other.g;
@@
if str(g) not in WRAPPERS:
    cocci.include_match(False)

@unrel2 depends on wrappers exists@
identifier other.g;
position other.q;
identifier fn;
identifier rr : script:python() { str(rr) in RELEASES or str(rr) in UNLOCKERS };
expression E;
statement S1, S2;
@@
fn(...) { ... when any
(
g@q(...);
|
E = g@q(...);
|
if (<+... g@q(...) ...+>) S1 else S2
|
if (<+... g@q(...) ...+>) S1
|
return <+... g@q(...) ...+>;
)
... when != rr(...)
}

@script:python@
g << other.g;
q << other.q;
fn << unrel2.fn;
@@
f, fn, line, col = where(q)
emit('R', f, fn, g, line)

// ------------------------------------------------------------ parameters
@param depends on facts@
identifier fn, f;
parameter list[n] ps;
position s;
@@
fn@s(ps, struct file *f, ...) { ... }

@script:python@
fn << param.fn;
f << param.f;
n << param.n;
s << param.s;
@@
emit('P', s[0].file, fn, n, f)

// Every use of a parameter's name; the safe shapes below account for some.
@use@
identifier param.f;
position q;
@@
f@q

@script:python@
f << param.f;
q << use.q;
@@
fl, fn, line, col = where(q)
emit('U', fl, fn, f, line, col)

@deref@
identifier param.f, fld;
position q;
@@
f@q->fld

@script:python@
f << param.f;
q << deref.q;
@@
fl, fn, line, col = where(q)
emit('S', fl, fn, f, line, col, 'deref')

@test@
identifier param.f;
expression E;
position q;
@@
(
!f@q
|
f@q == E
|
E == f@q
|
f@q != E
|
E != f@q
|
f@q && E
|
E && f@q
|
f@q || E
|
E || f@q
)

@script:python@
f << param.f;
q << test.q;
@@
fl, fn, line, col = where(q)
emit('S', fl, fn, f, line, col, 'test')

@iftest@
identifier param.f;
statement S1, S2;
position q;
@@
(
if (f@q) S1 else S2
|
if (f@q) S1
|
while (f@q) S1
)

@script:python@
f << param.f;
q << iftest.q;
@@
fl, fn, line, col = where(q)
emit('S', fl, fn, f, line, col, 'test')

@arg@
identifier param.f, g;
expression list[j] es;
position q;
@@
g(es, f@q, ...)

@script:python@
f << param.f;
g << arg.g;
j << arg.j;
q << arg.q;
@@
fl, fn, line, col = where(q)
emit('S', fl, fn, f, line, col, 'arg', g, j)

@faddr@
identifier param.f, fld;
position q;
@@
 &f@q->fld

@script:python@
f << param.f;
q << faddr.q;
@@
fl, fn, line, col = where(q)
emit('A', fl, fn, f, line, col)

@fieldarg@
identifier param.f, fld, g;
position q;
@@
g(..., &f@q->fld, ...)

@script:python@
f << param.f;
g << fieldarg.g;
q << fieldarg.q;
@@
fl, fn, line, col = where(q)
emit('S', fl, fn, f, line, col, 'fieldarg', g)

// ------------------------------------------------------------ solve
@finalize:python@
@@
import json
solve = os.environ.get('SAFER_FPUT_SOLVE')
if solve:
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(os.environ['SAFER_FPUT_SOLVER'])))
    import solver
    solver.main(solve, DATA)
