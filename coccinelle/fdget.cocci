// SPDX-License-Identifier: GPL-2.0-only
/// Convert a struct file * taken with fget() and released with fput() in the
/// same function to fdget()/fdput(), when the reference provably stays
/// borrowed. It must be held in a local variable (declared anywhere in the
/// function) that nothing else in the function is assigned to (no other
/// assignment or initialiser, its address not taken: a second source, such
/// as a reference handed over by a caller, is not borrowed from the fd
/// table), not be taken in a loop, and every use of it must be one of:
/// a dereference, a NULL test (if (!f), if (f), f == NULL, ...), the put,
/// or an argument of a function that borrows it. A function borrows its
/// parameter when its body does not store, return or put it, or hand it to
/// a function that does not (summaries.cocci computes this from the tree,
/// to a fixpoint); installing it in the fd table (data/installs) is not
/// borrowing. Between the get and the put, no call may change the fd
/// table as __fget_light()'s comment forbids, directly or through its
/// callees (data/fdtable: close or replace a descriptor, share, unshare or
/// exit the table; CLONE_FILES), and there must be no indirect call:
/// fdget() takes no reference while the fd table is not shared, so a
/// close() or dup2() of the fd there would free the file under us. Adding
/// a descriptor (fd_install() of another file, dup()) is no such change. The put must not be repeated, the variable not used
/// after it or reassigned. A callee with no body in the tree, or one the
/// summaries could not decide, is unknown, and unknown rejects. Report mode
/// gives every fget() call's verdict, with the reason of a rejection.
///
/// The form written is the tree's idiom. Without -D fd_class (6.1): struct
/// fd f; f = fdget(fd); ... f.file ...; fdput(f);. With -D fd_class (a tree
/// whose include/linux/file.h has DEFINE_CLASS(fd, ...), as 6.12): CLASS(fd,
/// f)(fd); in place of the fget() statement, fd_empty(f) for its NULL tests,
/// fd_file(f) for the other uses, and no put: the scope puts it.
//
// Confidence: High
// Copyright: (C) 2026 The safer-fput project. GPL-2.0-only.
// Options: --no-includes --include-headers; -D fd_class where the tree
// defines CLASS(fd) and the fd_file()/fd_empty() accessors
// (coccinelle/data/idioms: the scripts read it from the tree and pass it,
// and the generated commit names it)
// Keywords: fget, fput, fdget, fdput, CLASS, fd_file, fd_empty
//
// Comments: with -D fd_class, CLASS(fd) is used only where the scope-based
// put is the same put on every path: the fget() is a statement of its own
// (assignment or declaration, not labelled: a declaration cannot be), no
// goto from outside its scope lands on a label inside it and no case label
// of the same switch follows it (C forbids the jump into the scope of a
// variable with a cleanup attribute; gcc errors), the variable (declared
// "struct file *f;" alone) is not used outside that scope (the block the
// fget() is in: an fget() in an if or else arm whose result is tested,
// used or put after the arm takes the struct fd form), and no call
// after the put that may change the fd table, and no indirect call, runs
// before the end of the scope, where CLASS(fd) now puts the file. A site
// that fails only these is still converted, to struct fd f = fdget(fd);
// ... fd_file(f) ...; fdput(f); (fd_empty(f) for the NULL tests), which
// 6.12 keeps for such sites too: the analysis above already proved the
// puts of that form, so refusing would lose a site it shows safe. Report
// mode says "converted to struct fd, not CLASS(fd): <reason>" for it. An
// fget() in a loop is refused in either idiom.
//
// Notes: needs SAFER_FPUT_SUMMARIES, the summaries.json that
// coccinelle/summaries.sh computed for the same tree, and SAFER_FPUT_DATA.
// A NULL test may be done by a borrowing predicate (file_is_kvm()): fdput()
// of an empty struct fd does nothing, so a path on which the original code
// skipped the put because fget() failed stays correct. What a
// function-like macro does is not analysed (the calls in its arguments are).

virtual patch
virtual report
virtual context
virtual fd_class

@initialize:python@
@@
import json
import linecache
import os
import re
import sys

_sp = os.environ.get('SAFER_FPUT_SUMMARIES')
if not _sp or not os.path.exists(_sp):
    raise SystemExit('fdget.cocci: SAFER_FPUT_SUMMARIES must name the '
                     'summaries.json of coccinelle/summaries.sh')
_data = os.environ.get('SAFER_FPUT_DATA')
if not _data or not os.path.isdir(_data):
    raise SystemExit('fdget.cocci: SAFER_FPUT_DATA must name coccinelle/data')

# The data files are read as the summaries' solver reads them: solver.py
# sits beside data/.
sys.path.insert(0, os.path.dirname(os.path.abspath(_data)))
import solver  # noqa: E402

with open(_sp) as _fh:
    SUMS = json.load(_fh)
DEFS = SUMS['defs']


def _rows(name):
    """The lines of data/NAME as lists of words (solver.py's reader)."""
    return solver.table(_data, name)


def _table(name):
    """Every word of data/NAME (a lock and its releases are all names)."""
    return {w for r in _rows(name) for w in r}


FDTABLE = {r[0] for r in _rows('fdtable')}
INSTALLS = solver.installs(_rows('installs'))
PUTS = _table('puts')
LOCKPRIMS = _table('locks')


def norm(fl):
    return fl[2:] if fl.startswith('./') else fl


MACROS = set(SUMS.get('macros', ()))


def resolve(fl, name):
    k = '%s:%s' % (norm(fl), name)
    if k in DEFS:
        return k
    if name in DEFS:
        return name
    return None


def state(table, key):
    st = SUMS[table].get(key)
    if st is None:
        return 'unknown: no summary'
    if st[0] == 'ok':
        return None
    if st[0] == 'pending':
        return 'unknown: %s, past the last round of summaries' % st[1][len('pending: '):]
    return st[1]


def fdtable_why(fl, g):
    """Why a call of g from file fl may change the fd table, or None."""
    if g in FDTABLE:
        return 'changes the fd table'
    if g in INSTALLS or g in PUTS or g in LOCKPRIMS:
        return None
    k = resolve(fl, g)
    if k is None:
        if g in MACROS or g.startswith('__builtin_'):
            return None
        return 'unknown: no body in the tree'
    return state('fdtable', k)


def borrow_why(fl, g, j):
    """Why handing the file to g as argument j may keep it, or None."""
    if g in FDTABLE:
        return 'changes the fd table'
    if g in INSTALLS:
        if INSTALLS[g] == j:
            return 'installs it in the fd table'
        return None
    if g in PUTS:
        return 'puts it'
    k = resolve(fl, g)
    if k is None:
        if g in MACROS:
            return 'a macro, whose body is not analysed'
        return 'unknown: no body in the tree'
    bk = '%s/%d' % (k, j)
    if bk not in SUMS['borrows']:
        return 'argument %d of %s() is not a struct file * parameter' % (j + 1, g)
    return state('borrows', bk)


seen = {}      # (file, line) -> None
rejected = {}  # (file, line) -> [reasons]
cands = set()
uses = {}      # site -> {(line, col)}
safe = {}      # site -> {(line, col)}


def key(p):
    return (p[0].file, int(p[0].line))


# The fget() sites the assignment pattern (okp) renames. Its isomorphisms
# match a declaration's initialiser too, which okd also matches: renaming
# such a variable twice, when it is already named as the struct fd ("f"),
# would write f.file.file.
OKP_SITES = set()


def see(p):
    seen.setdefault(key(p), None)


def reject(p, why):
    r = rejected.setdefault(key(p), [])
    if why not in r:
        r.append(why)


def cand(p):
    return key(p) in cands


def ok(p):
    return key(p) in cands and key(p) not in rejected


def use(p, q):
    uses.setdefault(key(p), set()).add((q[0].line, q[0].column))


def safe_use(p, q):
    safe.setdefault(key(p), set()).add((q[0].line, q[0].column))


# With -D fd_class (include/linux/file.h of the tree defines CLASS(fd)):
# why a converted site cannot be CLASS(fd, f)(fd) and is written as
# struct fd with fdget()/fdput() instead, and the variable of each site.
noclass = {}   # site -> [reasons]
var = {}       # site -> (name of the struct file * variable, 'assign' or 'decl')


# Every assignment of a site's variable in its function must be the fget()
# (the assign rules below): another one is a second source.
own = {}       # site -> {(line, col)} of the variable in its fget() assignment
owner = {}     # site -> (file, function, name of the variable)
watch = set()  # (file, function, name) of every site
assigns = {}   # (file, function, name) -> {(line, col, 'assign' or 'addr')}


def owned(p, a, f):
    k = key(p)
    own.setdefault(k, set()).add((int(a[0].line), int(a[0].column)))
    w = (p[0].file, p[0].current_element, str(f))
    owner[k] = w
    watch.add(w)


def watched(q, f):
    return (q[0].file, q[0].current_element, str(f)) in watch


def assigned(q, f, how):
    w = (q[0].file, q[0].current_element, str(f))
    assigns.setdefault(w, set()).add((int(q[0].line), int(q[0].column), how))


def noclass_add(p, why):
    r = noclass.setdefault(key(p), [])
    if why not in r:
        r.append(why)


spans = {}     # site -> (p, first, last): the lines of the function around it


def span(p, s):
    """Record the lines of the function whose name is at s, around the site
    p: from s to its closing brace, found by matching the braces of its body
    (a position on the closing brace in SmPL binds to inner blocks too, even
    ones before the fget(): a span that ends there would hide the uses past
    it from the checks). Not recorded when the braces do not match up around
    p (an #ifdef that opens a brace twice, say): the site is then refused."""
    k = key(p)
    if k in spans:
        return
    fl, first = p[0].file, int(s[0].line)
    code = strip_c(''.join(linecache.getlines(fl)[first - 1:]))
    depth = 0
    for i, c in enumerate(code):
        if c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
            if depth <= 0:
                last = first + code.count('\n', 0, i)
                if depth == 0 and first < int(p[0].line) < last:
                    spans[k] = (p, first, last)
                return


def fn_body(k):
    """The text of the function around site k, or None."""
    if k not in spans:
        return None
    p, first, last = spans[k]
    return ''.join(linecache.getline(p[0].file, n)
                   for n in range(first, last + 1))


def name_checks(p, f):
    """The struct fd is called f: the name must be free in the function,
    and its fget() the only one into the variable."""
    body = fn_body(key(p))
    if body is None:
        return
    if str(f) != 'f' and re.search(r'\bf\b', body):
        reject(p, "the name f is already used in %s()" % p[0].current_element)
    elif str(f) == 'f' and re.search(r'\bf\.|struct fd\b', body):
        reject(p, "the name f is already used in %s()" % p[0].current_element)
    if len(re.findall(r'\b%s\s*=\s*fget\s*\(' % re.escape(str(f)), body)) != 1:
        reject(p, "more than one fget() into %s in %s()" % (f, p[0].current_element))


def classok(p):
    return ok(p) and key(p) not in noclass


def fdok(p):
    return ok(p) and key(p) in noclass


def strip_c(text):
    """text with its comments, string and character literals blanked (same
    offsets, newlines kept), for the scans of class_why()."""
    def blank(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    # (chr(47) is the slash: the SmPL parser takes two for a comment.)
    sl = chr(47)
    comments = sl + r'\*.*?\*' + sl + '|' + sl + sl + r'[^\n]*'
    # (and quotes and backslashes are spelt as chr() for it too)
    lit = r'Q(?:B.|[^QB\n])*Q'.replace('B', chr(92) * 2)
    literals = lit.replace('Q', chr(34)) + '|' + lit.replace('Q', chr(39))
    return re.sub(comments + '|' + literals, blank, text, flags=re.S)


def class_why(p, first, last, name, form):
    """Why the fget() at p, into variable name in the function spanning
    lines first to last, cannot become CLASS(fd, f)(fd) there, or None. The
    CLASS declaration takes the place of the fget() statement: its scope
    runs from there to the end of the enclosing block, and C forbids a jump
    into it from outside (gcc: "jump into scope of identifier with variably
    modified type" / "... with cleanup attribute")."""
    fl = p[0].file
    lines = [linecache.getline(fl, n) for n in range(first, last + 1)]
    code = strip_c(''.join(lines))
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))

    def off(line, col):
        return starts[int(line) - first] + int(col)

    def line_of(o):
        return first + code.count('\n', 0, o)
    at = off(p[0].line, p[0].column)
    # Blocks: the offsets of each { and its }.
    blocks, stack = [], []
    for i, c in enumerate(code):
        if c == '{':
            stack.append(i)
        elif c == '}' and stack:
            blocks.append((stack.pop(), i))

    def block_of(o):
        inner = None
        for b in blocks:
            if b[0] < o < b[1] and (inner is None or b[0] > inner[0]):
                inner = b
        return inner
    blk = block_of(at)
    if blk is None:
        return 'the fget() is not in a block'
    # The statement the CLASS declaration replaces: from the end of the
    # statement or block before it.
    ss = max(code.rfind(c, 0, at) for c in ';{}') + 1
    prefix = code[ss:at]
    if form == 'decl':
        shape = r'\s*struct\s+file\s*\*\s*%s\s*=\s*$'
    else:
        shape = r'\s*%s\s*=\s*$'
    if not re.match(shape % re.escape(name), prefix):
        if ':' in prefix:
            return 'a label is right before the fget() (a declaration cannot be labelled)'
        return 'the fget() is not a statement of its own'
    end = blk[1]

    def inside(o):
        return ss <= o < end
    if re.search(r'\bgoto\s*\*', code):
        return 'a computed goto in %s()' % p[0].current_element
    labels = {}
    for m in re.finditer(r'(?:(?<=[;{}])|(?<=:))\s*([A-Za-z_]\w*)\s*:(?![:=])', code):
        if m.group(1) != 'default':
            labels[m.group(1)] = m.start(1)
    for m in re.finditer(r'\bgoto\s+([A-Za-z_]\w*)\s*;', code):
        lo = labels.get(m.group(1))
        if lo is not None and inside(lo) and not inside(m.start()):
            return ('goto %s at line %d jumps over the declaration into its scope'
                    % (m.group(1), line_of(m.start())))
    for m in re.finditer(r'\b(?:case\b|default\s*:)', code):
        if inside(m.start()) and block_of(m.start()) == blk:
            return ('a case label at line %d of the same switch would jump over '
                    'the declaration' % line_of(m.start()))
    # Every use in the scope: the declaration of an assigned variable is
    # the only one outside it (and is dropped).
    decl = r'\bstruct\s+file\s*\*\s*%s\s*;' % re.escape(name)
    decls = [m.span() for m in re.finditer(decl, code)]
    if form == 'assign' and len(decls) != 1:
        return 'the declaration of %s is not "struct file *%s;"' % (name, name)
    for m in re.finditer(r'(?<![\w.>])%s\b' % re.escape(name), code):
        o = m.start()
        if not inside(o) and not any(a <= o < b for a, b in decls):
            return ('%s is used at line %d, outside the scope a CLASS(fd) there '
                    'would have' % (name, line_of(o)))
    return None


# finalize merges these across --jobs workers through the coccinelle module.
import coccinelle as _cocci_mod
_cocci_mod.seen = seen
_cocci_mod.rejected = rejected
_cocci_mod.cands = cands
_cocci_mod.uses = uses
_cocci_mod.safe = safe
_cocci_mod.noclass = noclass

// Every fget() call is a site.
@site@
position p;
@@
fget@p(...)

@script:python@
p << site.p;
@@
see(p)

// The one shape we convert: a local struct file * assigned from fget(fdx),
// in a plain assignment statement or in its declaration (in any block).
@cand1@
identifier fn;
local idexpression struct file *f;
expression fdx;
position p, a;
@@
fn(...) { <+... f@a = fget@p(fdx); ...+> }

@script:python@
p << cand1.p;
a << cand1.a;
f << cand1.f;
@@
cands.add(key(p))
var.setdefault(key(p), (str(f), 'assign'))
owned(p, a, f)

@cand2@
identifier f;
expression fdx;
position p, a;
@@
struct file *f@a = fget@p(fdx);

@script:python@
p << cand2.p;
a << cand2.a;
f << cand2.f;
@@
cands.add(key(p))
var[key(p)] = (str(f), 'decl')
owned(p, a, f)

// Loop: the same get can run twice (loops and backward gotos).
@loop exists@
position p : script:python() { cand(p) };
@@
fget@p(...)
...
fget@p(...)

@script:python@
p << loop.p;
@@
reject(p, "fget() in a loop (can re-get)")

@loop2@
position p : script:python() { cand(p) };
iterator I;
@@
(
for (...;...;...) { <+... fget@p(...) ...+> }
|
while (...) { <+... fget@p(...) ...+> }
|
I(...) { <+... fget@p(...) ...+> }
)

@script:python@
p << loop2.p;
@@
reject(p, "fget() in a loop (can re-get)")

// Every use of the variable after the get ...
@uses exists@
identifier f;
position p : script:python() { cand(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
f@q

@script:python@
p << uses.p;
q << uses.q;
@@
use(p, q)

// ... must have one of the shapes a borrowed reference may have.
@shapes exists@
identifier f, fld;
position p : script:python() { cand(p) };
position q;
expression E;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
(
f@q->fld
|
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
|
fput(f@q)
)

@script:python@
p << shapes.p;
q << shapes.q;
@@
safe_use(p, q)

@ifshape exists@
identifier f;
position p : script:python() { cand(p) };
position q;
statement S1, S2;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
(
if (f@q) S1 else S2
|
if (f@q) S1
)

@script:python@
p << ifshape.p;
q << ifshape.q;
@@
safe_use(p, q)

// Escapes the shapes above would not name.
@esc exists@
identifier f;
position p : script:python() { cand(p) };
position q;
expression E;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
(
return@q f;
|
E = f@q
|
E = &f@q
)

@script:python@
p << esc.p;
q << esc.q;
@@
reject(p, "reference escapes (returned, stored or address taken) at line %s" % q[0].line)

// The address of a field: only a lock call may be handed one.
@faddr exists@
identifier f, fld;
position p : script:python() { cand(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
 &f@q->fld

@script:python@
p << faddr.p;
q << faddr.q;
@@
reject(p, "the address of a field of the file is taken at line %s" % q[0].line)

// The file handed to a callee: the callee must borrow it.
@callee exists@
identifier f, g;
position p : script:python() { cand(p) };
position q;
expression list[j] es;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
g(es, f@q, ...)

@script:python@
p << callee.p;
g << callee.g;
j << callee.j;
q << callee.q;
@@
if str(g) != 'fput':
    why = borrow_why(p[0].file, str(g), int(j))
    if why:
        reject(p, "file passed to %s() at line %s: %s" % (g, q[0].line, why))
    else:
        safe_use(p, q)
else:
    safe_use(p, q)

// Between get and put: no call that may change the fd table.
@between exists@
identifier f, g;
position p : script:python() { cand(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != fput(f)
g@q(...)

@script:python@
p << between.p;
g << between.g;
q << between.q;
@@
if str(g) not in ('fget', 'fput'):
    why = fdtable_why(p[0].file, str(g))
    if why:
        reject(p, "%s() at line %s between get and put: %s" % (g, q[0].line, why))

@betweenc exists@
identifier f, fld;
position p : script:python() { cand(p) };
position q;
expression E;
local idexpression fp;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != fput(f)
(
E->fld@q(...)
|
E.fld@q(...)
|
 (*E)@q(...)
|
fp@q(...)
|
CLONE_FILES@q
)

@script:python@
p << betweenc.p;
q << betweenc.q;
@@
reject(p, "unknown: indirect call or CLONE_FILES at line %s between get and put" % q[0].line)

// Every path that got the file must put it: a path that returns without
// the put keeps the reference (dma_buf_get() returns what it holds). A
// path may skip the put only where the file is known NULL: the test right
// after the get (if (!f), if (f), or a predicate such as
// if (!file_is_kvm(f))), or a conditional put "if (f) fput(f)".
@noput exists@
identifier f, g;
position p : script:python() { cand(p) };
position q;
statement S;
expression list es;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != f
if (\(!f\|f == NULL\|unlikely(!f)\|unlikely(f == NULL)\)) S
... when != fput(f)
    when != if (f) fput(f);
return@q ...;

@script:python@
p << noput.p;
q << noput.q;
@@
reject(p, "the path to the return at line %s has no fput()" % q[0].line)

@noput2 exists@
identifier fn, f, g;
position p : script:python() { cand(p) };
statement S;
expression list es;
@@
fn(...) {
... when any
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != f
if (\(!f\|f == NULL\|unlikely(!f)\|unlikely(f == NULL)\)) S
... when != fput(f)
    when != if (f) fput(f);
    when != return ...;
}

@script:python@
p << noput2.p;
@@
reject(p, "a path reaches the end of the function without fput()")

@noputp exists@
identifier f, g;
position p : script:python() { cand(p) };
position q;
statement S;
expression list es;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != f
if (!g(es, f, ...)) S
... when != fput(f)
    when != if (f) fput(f);
return@q ...;

@script:python@
p << noputp.p;
q << noputp.q;
@@
reject(p, "the path to the return at line %s has no fput()" % q[0].line)

@noputp2 exists@
identifier fn, f, g;
position p : script:python() { cand(p) };
statement S;
expression list es;
@@
fn(...) {
... when any
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != f
if (!g(es, f, ...)) S
... when != fput(f)
    when != if (f) fput(f);
    when != return ...;
}

@script:python@
p << noputp2.p;
@@
reject(p, "a path reaches the end of the function without fput()")

// After a positive test "if (f) { ... }", the block must put on every way
// out of it.
@noputpos exists@
identifier f;
position p : script:python() { cand(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != f
if (f) {
... when != fput(f)
return@q ...;
}

@script:python@
p << noputpos.p;
q << noputpos.q;
@@
reject(p, "the path to the return at line %s has no fput()" % q[0].line)

@noputpos2 exists@
identifier f;
position p : script:python() { cand(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != f
if (f) {
... when != fput(f)
    when != return ...;
}@q

@script:python@
p << noputpos2.p;
q << noputpos2.q;
@@
reject(p, "the block of the test at line %s can be left without fput()" % q[0].line)

@twice exists@
identifier f;
position p : script:python() { cand(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
fput(f);
...
fput@q(f);

@script:python@
p << twice.p;
q << twice.q;
@@
reject(p, "a path puts twice (line %s)" % q[0].line)

@uap exists@
identifier f;
position p : script:python() { cand(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
fput(f);
...
f@q

@script:python@
p << uap.p;
q << uap.q;
@@
reject(p, "file used after fput() at line %s" % q[0].line)

@reassigned exists@
identifier f;
position p : script:python() { cand(p) };
position q;
expression E;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
f@q = E

@script:python@
p << reassigned.p;
q << reassigned.q;
@@
reject(p, "variable reassigned at line %s" % q[0].line)

// Every assignment of the variable in the function, before the get too, or
// on a path that does not take it (6.12's coda_parse_fd(): file =
// param->file in one arm, file = fget(fd) in the other): any but the
// fget()'s own is a second source of the file, which fdget() and fdput()
// (or CLASS(fd)) would not put as it must be. An initialiser is one (the
// assignment isomorphism matches it), and so is taking its address. (They
// depend on site, as they have no token of their own: else spatch, given
// no word to grep the tree for, would read every file of it.)
@assign depends on site@
identifier f;
expression E;
assignment operator aop;
position q : script:python(f) { watched(q, f) };
@@
f@q aop E

@script:python@
q << assign.q;
f << assign.f;
@@
assigned(q, f, 'assign')

@assignd depends on site@
identifier f;
type T;
expression E;
position q : script:python(f) { watched(q, f) };
@@
T f@q = E;

@script:python@
q << assignd.q;
f << assignd.f;
@@
assigned(q, f, 'assign')

@assigna depends on site@
identifier f;
position q : script:python(f) { watched(q, f) };
@@
 &f@q

@script:python@
q << assigna.q;
f << assigna.f;
@@
assigned(q, f, 'addr')

// The function around the site (span()), for the name checks here and
// class_why(). The struct fd is called "f": that name must be free in it.
// (exists: the fget() may be on some paths only, in an if or else arm.)
@range exists@
identifier fn, f;
position p : script:python() { cand(p) };
position s;
@@
fn@s(...) { ... when any
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
}

@range2@
identifier fn, f;
position p : script:python() { cand(p) };
position s;
@@
fn@s(...) { <+...
struct file *f = fget@p(...);
...+> }

@script:python@
p << range.p;
s << range.s;
f << range.f;
@@
span(p, s)
name_checks(p, f)

@script:python@
p << range2.p;
s << range2.s;
f << range2.f;
@@
span(p, s)
name_checks(p, f)

// Uses that none of the shapes above accounts for.
@script:python depends on site@
@@
for k in list(cands):
    for line, col in sorted(uses.get(k, ()), key=lambda x: (int(x[0]), int(x[1]))):
        if (line, col) not in safe.get(k, ()) and k not in rejected:
            rejected.setdefault(k, []).append(
                "file used at line %s other than by a dereference, a NULL test, "
                "the put or as an argument" % line)
            break

// A second source of the variable (the assign rules), and a site whose
// function span() did not find: its name and scope checks did not run.
@script:python depends on site@
@@
for k in sorted(cands):
    if k not in spans:
        rejected.setdefault(k, []).append(
            "the function around the fget() was not found (its names and "
            "scopes cannot be checked)")
    if k not in owner:
        continue
    name = owner[k][2]
    for line, col, how in sorted(assigns.get(owner[k], ())):
        if (line, col) in own.get(k, ()):
            continue
        if how == 'addr':
            why = "the address of %s is taken at line %d" % (name, line)
        else:
            why = ("%s is also assigned at line %d (not only the fget() result)"
                   % (name, line))
        r = rejected.setdefault(k, [])
        if "variable reassigned at line %d" % line not in r and why not in r:
            r.append(why)
        break

// ------------------------------------------------- CLASS(fd) or struct fd
// With -D fd_class a converted site becomes CLASS(fd, f)(fd) where the
// scope allows it (class_why()), and where nothing after the put, up to
// the end of the scope where CLASS(fd) puts the file instead, may change
// the fd table; else it keeps struct fd, fdget() and fdput().
@script:python depends on site && fd_class@
@@
for k, (p, first, last) in spans.items():
    if k in var and ok(p):
        why = class_why(p, first, last, *var[k])
        if why:
            noclass_add(p, why)

@classafter depends on fd_class exists@
identifier f, g;
position p : script:python() { ok(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
g@q(...)

@script:python depends on fd_class@
p << classafter.p;
g << classafter.g;
q << classafter.q;
@@
# Calls before the put were judged above (an ok site has none that may
# change the fd table): these come after it.
if str(g) not in ('fget', 'fput'):
    why = fdtable_why(p[0].file, str(g))
    if why:
        noclass_add(p, "%s() at line %s, after the put, would run before CLASS(fd) "
                    "puts the file: %s" % (g, q[0].line, why))

@classafterc depends on fd_class exists@
identifier f, fld;
position p : script:python() { ok(p) };
position q;
expression E;
local idexpression fp;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
(
E->fld@q(...)
|
E.fld@q(...)
|
 (*E)@q(...)
|
fp@q(...)
|
CLONE_FILES@q
)

@script:python depends on fd_class@
p << classafterc.p;
q << classafterc.q;
@@
noclass_add(p, "unknown: indirect call or CLONE_FILES at line %s, after the put, would run "
            "before CLASS(fd) puts the file" % q[0].line)

// ---------------------------------------------------------------- report
@finalize:python depends on report@
seen_l << merge.seen;
rejected_l << merge.rejected;
cands_l << merge.cands;
noclass_l << merge.noclass;
@@
# With --jobs each worker has its own state: merge it.
seen, rejected, cands, noclass = {}, {}, set(), {}
for d in seen_l:
    seen.update(d)
for d in rejected_l:
    rejected.update(d)
for c in cands_l:
    cands |= c
for d in noclass_l:
    noclass.update(d)
for k in sorted(seen):
    if k in rejected:
        print("%s:%d: rejected: %s" % (k[0], k[1], "; ".join(rejected[k])))
    elif k in cands and k in noclass:
        print("%s:%d: converted to struct fd, not CLASS(fd): %s" % (k[0], k[1], "; ".join(noclass[k])))
    elif k in cands:
        print("%s:%d: converted" % k)
    else:
        print("%s:%d: rejected: result not held in a local struct file * variable" % k)

// ---------------------------------------------------------------- convert
@okp depends on patch && !fd_class@
identifier fn;
local idexpression struct file *f;
expression fdx;
position p : script:python() { ok(p) };
@@
fn(...) { <+... f = fget@p(fdx) ...+> }

@okd depends on patch && !fd_class@
identifier f;
expression fdx;
position p : script:python() { ok(p) };
@@
struct file *f = fget@p(fdx);

@script:python mk1@
fn << okp.fn;
f << okp.f;
p << okp.p;
fid;
nf;
@@
OKP_SITES.add(key(p))
coccinelle.fid = cocci.make_ident(str(f))
coccinelle.nf = cocci.make_ident("f")

@script:python mk2@
p << okd.p;
f << okd.f;
fn;
fid;
nf;
@@
coccinelle.fn = cocci.make_ident(p[0].current_element)
coccinelle.fid = cocci.make_ident(str(f))
coccinelle.nf = cocci.make_ident("f")

@ren1@
identifier okp.fn, mk1.fid, mk1.nf;
@@
fn(...) { <...
- fid
+ nf.file
...> }

// Renamed by ren1 already: not again.
@script:python mk2r@
p << okd.p;
f << okd.f;
fn;
fid;
nf;
@@
# (include_match(False) here would drop okd's match for mk2's rules too.)
coccinelle.fn = cocci.make_ident(p[0].current_element)
coccinelle.nf = cocci.make_ident("f")
if key(p) in OKP_SITES:
    coccinelle.fid = cocci.make_ident("safer_fput_renamed_by_ren1")
else:
    coccinelle.fid = cocci.make_ident(str(f))

@ren2@
identifier mk2r.fn, mk2r.fid, mk2r.nf;
@@
fn(...) { <...
- fid
+ nf.file
...> }

@fix1@
identifier okp.fn, mk1.fid, mk1.nf;
expression fdx;
@@
fn(...) { <...
(
- nf.file = fget(fdx)
+ nf = fdget(fdx)
|
- fput(nf.file)
+ fdput(nf)
)
...> }

@fix2@
identifier mk2.fn, mk2.fid, mk2.nf;
@@
fn(...) { <...
- fput(nf.file)
+ fdput(nf)
...> }

@decl1@
identifier okp.fn, mk1.fid, mk1.nf;
@@
fn(...) { ... when any
- struct file *fid;
+ struct fd nf;
... when any
}

@decl2@
identifier mk2.fn, mk2.fid, mk2.nf;
expression fdx;
@@
fn(...) { <...
- struct file *fid = fget(fdx);
+ struct fd nf = fdget(fdx);
...> }

// -------------------------------------------- convert, -D fd_class (6.12)
// Both forms rename the variable to fd_file(f) and its NULL tests to
// fd_empty(f); a site CLASS(fd) can take (classok()) loses its puts and
// its declaration, the other keeps struct fd with fdget() and fdput().
@okc depends on patch && fd_class@
identifier fn;
expression fdx;
position p : script:python() { classok(p) };
@@
fn(...) { <+... fget@p(fdx) ...+> }

@script:python mkc@
p << okc.p;
fid;
nf;
@@
coccinelle.fid = cocci.make_ident(var[key(p)][0])
coccinelle.nf = cocci.make_ident("f")

@renc@
identifier okc.fn, mkc.fid, mkc.nf;
@@
fn(...) { <...
- fid
+ fd_file(nf)
...> }

// The conditional put "if (f) fput(f)": CLASS(fd) puts only a full one.
@condputc@
identifier okc.fn, mkc.nf;
@@
fn(...) { <...
(
- if (fd_file(nf)) fput(fd_file(nf));
|
- if (fd_file(nf) != NULL) fput(fd_file(nf));
)
...> }

// A block left with one statement loses its braces (coding style).
@putc@
identifier okc.fn, mkc.nf;
expression E;
statement S;
@@
fn(...) { <...
(
- if (E) {
- fput(fd_file(nf));
- S
- }
+ if (E)
+	S
|
- if (E) {
- S
- fput(fd_file(nf));
- }
+ if (E)
+	S
|
- fput(fd_file(nf));
)
...> }

@nullc@
identifier okc.fn, mkc.nf;
@@
fn(...) { <...
(
- unlikely(!fd_file(nf))
+ fd_empty(nf)
|
- !fd_file(nf)
+ fd_empty(nf)
|
- fd_file(nf) == NULL
+ fd_empty(nf)
|
- NULL == fd_file(nf)
+ fd_empty(nf)
|
- fd_file(nf) != NULL
+ !fd_empty(nf)
|
- NULL != fd_file(nf)
+ !fd_empty(nf)
)
...> }

@nullc2@
identifier okc.fn, mkc.nf;
statement S1, S2;
@@
fn(...) { <...
(
  if (
- fd_file(nf)
+ !fd_empty(nf)
  ) S1 else S2
|
  if (
- fd_file(nf)
+ !fd_empty(nf)
  ) S1
)
...> }

@getc@
identifier okc.fn, mkc.fid, mkc.nf;
expression fdx;
@@
fn(...) { <...
(
- fd_file(nf) = fget(fdx);
+ CLASS(fd, nf)(fdx);
|
- struct file *fid = fget(fdx);
+ CLASS(fd, nf)(fdx);
)
...> }

@declc@
identifier okc.fn, mkc.fid;
@@
fn(...) { ... when any
- struct file *fid;
... when any
}

@okf depends on patch && fd_class@
identifier fn;
expression fdx;
position p : script:python() { fdok(p) };
@@
fn(...) { <+... fget@p(fdx) ...+> }

@script:python mkf@
p << okf.p;
fid;
nf;
@@
coccinelle.fid = cocci.make_ident(var[key(p)][0])
coccinelle.nf = cocci.make_ident("f")

@renf@
identifier okf.fn, mkf.fid, mkf.nf;
@@
fn(...) { <...
- fid
+ fd_file(nf)
...> }

@nullf@
identifier okf.fn, mkf.nf;
@@
fn(...) { <...
(
- unlikely(!fd_file(nf))
+ fd_empty(nf)
|
- !fd_file(nf)
+ fd_empty(nf)
|
- fd_file(nf) == NULL
+ fd_empty(nf)
|
- NULL == fd_file(nf)
+ fd_empty(nf)
|
- fd_file(nf) != NULL
+ !fd_empty(nf)
|
- NULL != fd_file(nf)
+ !fd_empty(nf)
)
...> }

@nullf2@
identifier okf.fn, mkf.nf;
statement S1, S2;
@@
fn(...) { <...
(
  if (
- fd_file(nf)
+ !fd_empty(nf)
  ) S1 else S2
|
  if (
- fd_file(nf)
+ !fd_empty(nf)
  ) S1
)
...> }

@fixf@
identifier okf.fn, mkf.fid, mkf.nf;
expression fdx;
@@
fn(...) { <...
(
- fd_file(nf) = fget(fdx)
+ nf = fdget(fdx)
|
- fput(fd_file(nf))
+ fdput(nf)
)
...> }

@declf@
identifier okf.fn, mkf.fid, mkf.nf;
@@
fn(...) { ... when any
- struct file *fid;
+ struct fd nf;
... when any
}

@declf2@
identifier okf.fn, mkf.fid, mkf.nf;
expression fdx;
@@
fn(...) { <...
- struct file *fid = fget(fdx);
+ struct fd nf = fdget(fdx);
...> }
