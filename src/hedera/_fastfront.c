/* hedera._fastfront: the hot path of the generated front functions, in C.
 *
 * A generated front (hedera/_front.py) does three things per call: read the type of its array
 * arguments, look that type up in its cache (a dict filled by hedera._dispatch.miss), and call the
 * backend function it finds. Written in Python, that costs one Python frame, which adds 40-250 ns
 * per call depending on the framework. make_front() wraps a Python front in a builtin function
 * that does the same lookup in C and calls the backend function with the caller's arguments
 * unchanged (vectorcall), so the Python frame is only entered on the slow path:
 *
 *   - a cache miss, mixed argument types that are not cached, array arguments passed by keyword
 *     (other than optional ones, which the C front completes: below),
 *     or a sequence that is not a list/tuple of one type: the Python front decides (and caches);
 *   - the backend function raised an Exception: the front's ``explain`` (hedera._fastpath) gets
 *     that exception and the call's arguments, and raises hedera's error for it
 *     (hedera._diagnose) or returns, and then the framework's exception propagates. The call is
 *     not run a second time.
 *
 * The Python fronts remain the reference implementation: they are what hedera runs without this
 * extension (HEDERA_PURE_PYTHON=1 or no C compiler at install), and what torch.compile traces
 * (hedera._fastpath registers each one as the builtin's polyfill with dynamo).
 *
 * How each front finds its array arguments (the ``arity`` argument of make_front):
 *   arity >= 1  the first ``arity`` positional arguments (add: 2, sin: 1). All of one type: key is
 *               that type; otherwise the tuple of their types (hd.add(x, 1.0)), as miss() caches.
 *               The last of them may be optional (``optional`` of make_front: their names, for
 *               arrays that default to None, as clip's min and max): a call that omits them or
 *               passes them by keyword, hd.clip(x) or hd.clip(x, max=1.0), is completed to the
 *               positional call the Python front makes, clip(x, None, 1.0), before the lookup
 *               (complete_optional_arrays), and its target gets those arguments.
 *   SEQUENCE    a list or tuple as the first positional argument (concat, stack): key is the type
 *               its elements all share.
 *   VARIADIC    every positional argument (meshgrid, broadcast_arrays): key is their common type.
 *   VARIADIC_AFTER_FIRST  every positional argument after the first, which is not an array
 *               (einsum's operands after its subscripts): key is their common type.
 *   CURRENT     no array arguments (zeros, arange): key is the current backend's name, read as
 *               hedera._dispatch.current_backend does, from the state connect_current_backend()
 *               hands over (hedera._dispatch.CURRENT_BACKEND_STATE: use_backend's context
 *               variable, set_backend's one-element list, the torch.compile trace stack); or,
 *               for a call with ``backend="name"``, that name, and the backend function is
 *               called without the ``backend`` keyword (which only the front has).
 *
 * A backend function that is a conformance shim may name its common case, which the C front then
 * runs without entering the shim's Python frame (calling a Python function from C costs 60-80 ns
 * more than calling a builtin): the attribute ``__hedera_native__`` of the backend function,
 * ``(native, min_nargs, max_nargs, dtypes, keywords)`` (built by
 * hedera.backends._common.native_common_case), says that the shim's answer is native's for a call
 *   - with min_nargs to max_nargs positional arguments,
 *   - whose keywords are all keys of the dict ``keywords``: each either at its default (the value
 *     there: the same object, an equal int or str, an equal float of the same sign), which the
 *     native does not get, or one whose value there is Ellipsis, which the native gets as it is,
 *     or one whose value there is a tuple ``(default, pairs, types)``, a translated keyword: at
 *     its default it is dropped; a value identical to ``pairs[2k]`` reaches the native as
 *     ``pairs[2k + 1]`` (hd.float32 as torch.float32); one whose exact type is in ``types`` as it
 *     is (a torch.dtype); any other value keeps the call off the native,
 *   - and, unless ``dtypes`` is None, whose array arguments (the first ``arity``, all of one type)
 *     have one ``.dtype`` that is (identically) one of the tuple ``dtypes`` (for a CURRENT front,
 *     which has no arrays, ``dtypes`` is a tuple of tuples of types instead, one for each leading
 *     positional argument, whose exact type must be one of its tuple's: zeros(3), not
 *     zeros((3,)); full((3,), 1.0), not full((3,), a 0-d array)),
 *     ``dtypes`` may be Ellipsis: the array arguments are of one type, whatever their dtypes
 *     (two TensorFlow tensors, not a tensor and a Python int, which TF converts itself).
 *     Where the front has two or more arrays, ``dtypes`` may instead be a pair of tuples
 *     ``(leading, shared)``: the first array's .dtype is one of ``leading`` and the others share
 *     one of ``shared`` (where's bool condition and its two operands of one dtype),
 *   - and, where the tuple has a sixth item ``same_shape`` that is true, equal ``.shape``s (not
 *     with a ``(leading, shared)`` condition).
 * Where the native raises an Exception, the shim decides: it is called with the call's arguments,
 * as the Python front would have (so the promise is about the answers native returns; its errors
 * cost a second call, on the error path only).
 * It is read once per cache hit that changes the front's last hit (remember_hit), so a front
 * without it pays one pointer test per call.
 *
 * The module also has JitCall, the C call path of hd.jit's functions (the base class of
 * hedera.jit.Jitted; its section below).
 *
 * Up-front argument checks (``checks`` and ``check`` of make_front; hedera/_argkinds.py): for the
 * non-array arguments whose kind a framework may accept silently (a bool axis, a float k, an
 * array as a shape), each call first runs a fast test of the common values (an exact int, None
 * where allowed, a tuple of exact ints, an exact int/float/complex/bool number, split points and
 * tensordot's pair of axes as tuples or lists of exact ints, an exact str as einsum's subscripts,
 * True or False as a flag: pointer compares), and
 * only where that fails calls check(name, value), which accepts the other legitimate values (a
 * NumPy integer scalar) or raises hedera's error. A front without checks pays one test per call.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#define FASTFRONT_ABI 16
#define SEQUENCE (-1)
#define VARIADIC (-2)
#define CURRENT (-3)
#define VARIADIC_AFTER_FIRST (-4)
#define MAX_TUPLE_KEY 3

/* The fast tests of the argument checks (hedera._argkinds.FAST_*) */
#define FAST_INT 0          /* an exact int >= minimum */
#define FAST_INTS 1         /* an exact int or a tuple (torch.Size too) of exact ints, each >= minimum */
#define FAST_INT_SEQUENCE 2 /* the same, or a list of them */
#define FAST_NUMBER 3       /* an exact int, float, complex or bool */
#define FAST_SECTIONS 5     /* an exact int >= minimum, or a tuple or list of exact ints (any) */
#define FAST_CONTRACTION 6  /* an exact int >= minimum, or a tuple or list of two items, each an
                             * exact int or a tuple or list of exact ints (any) */
#define FAST_STR 7          /* an exact str (einsum's subscripts) */
#define FAST_BOOL 8         /* True or False (keepdims, stable, ...: not an int, not truthiness) */

#define MAX_CHECKS 4   /* checked arguments of one front (the most in the API table: 4, linspace) */

/* 16 bytes, kept inside the front's state next to the fields every call reads: anywhere else
 * (a separate allocation, the end of the state) they are out of the CPU caches after a framework
 * call of a few microseconds, and reading them costs a miss (measured: +20-30 ns per call). */
typedef struct {
    PyObject *name;      /* the parameter's name, interned (strong reference) */
    int minimum;         /* (where has_minimum) */
    short position;      /* its index among the positional arguments, or -1: keyword-only */
    unsigned char fast;  /* FAST_* */
    unsigned char none_ok : 1, has_minimum : 1; /* None passes; minimum applies */
} ArgumentCheck;

typedef struct {
    PyObject_HEAD
    /* The fields of the hot path (front_call: positional arguments of the last hit's one type, none
     * of them checked, a target without a native common case) come first, together with
     * method_def.ml_meth, which CPython reads to call the front: right after a framework call of a
     * few microseconds has evicted the state from the CPU caches, each cache line it spans costs
     * a miss. */
    Py_ssize_t hot_arity;      /* arity where it is >= 1; PY_SSIZE_T_MAX (no hot path) otherwise */
    Py_ssize_t hot_max_nargs;  /* the most positional arguments of a hot call: the least of
                                * check_position and max_positional (below) */
    PyObject *hot_types[MAX_TUPLE_KEY]; /* the type of each of the arity array arguments of the last
                                         * hit (its one type hit_count times over, or its key), where
                                         * its target has no native common case; hot_types[0] NULL:
                                         * none (borrowed: hit_types holds them) */
    PyObject *hit_target;
    PyMethodDef method_def;
    Py_ssize_t arity;
    Py_ssize_t check_position; /* the least position of a positional check (PY_SSIZE_T_MAX: none),
                                * so that a call without keywords and fewer positional arguments
                                * does not read the checks at all */
    /* The Python front's signature, so that a call it does not fit goes to it (and CPython raises
     * its TypeError) instead of to a backend function that takes more (numpy's sin(x, x) writes
     * into x): max_positional, the most positional arguments (PY_SSIZE_T_MAX: *args);
     * keyword_names, the parameters that may be passed by keyword (interned; NULL: **kwargs), of
     * which the first keyword_positional are positional too, at keyword_base on. */
    Py_ssize_t max_positional;
    PyObject *keyword_names;
    Py_ssize_t keyword_base;
    Py_ssize_t keyword_positional;
    Py_ssize_t check_count; /* the up-front argument checks (0: none) */
    ArgumentCheck checks[MAX_CHECKS];
    /* The last optional_count of the arity array parameters default to None; optional_names are
     * their names (interned; strong references), for keywords (complete_optional_arrays). */
    Py_ssize_t optional_count;
    PyObject *optional_names[MAX_TUPLE_KEY];
    /* The last key found in the cache and its function (hit_target above; strong references;
     * hit_count 0: none). Most programs call a front with one array type, and comparing type
     * pointers is cheaper than a dict lookup, above all right after a framework call of several
     * microseconds has evicted the dict from the CPU caches. Sound because the cache only ever
     * grows, and maps a key to one function for good (hedera._dispatch.miss). */
    Py_ssize_t hit_count;
    PyObject *hit_types[MAX_TUPLE_KEY];
    /* The last hit's __hedera_native__ (native, nargs, dtypes), unpacked (strong references;
     * hit_native NULL: the target has none). */
    PyObject *hit_native;
    PyObject *hit_native_dtypes;   /* a tuple, or NULL: no dtype condition */
    PyObject *hit_native_keywords; /* a dict: keyword -> its default, or Ellipsis: forwarded */
    Py_ssize_t hit_native_min_nargs;
    Py_ssize_t hit_native_nargs; /* (the most) */
    int hit_native_same_shape;   /* the array arguments must have equal .shape */
    int hit_native_leading;      /* hit_native_dtypes is a pair (leading, shared): see the top */
    PyObject *check;    /* check(name, value): the slow path of a failed fast test */
    PyObject *python;   /* the Python front: the slow path */
    PyObject *explain;  /* explain(exception, args, kwargs): the error path (raises, or returns) */
    PyObject *cache;    /* dict: type or tuple of types -> backend function */
    PyObject *name;     /* bytes, kept alive for method_def.ml_name */
    PyObject *doc;      /* bytes, kept alive for method_def.ml_doc */
} FrontState;

/* Where CURRENT fronts read the current backend (connect_current_backend; strong references). */
static PyObject *current_var;      /* use_backend's ContextVar: a backend name, or None */
static PyObject *process_backend;  /* list of one str: set_backend's setting */
static PyObject *trace_stack;      /* list: not empty while torch.compile traces use_backend */
static PyObject *backend_keyword;  /* the interned str "backend" */
static PyObject *native_attribute; /* the interned str "__hedera_native__" */
static PyObject *dtype_attribute;  /* the interned str "dtype" */
static PyObject *shape_attribute;  /* the interned str "shape" */

#define MAX_FORWARDED 16 /* arguments a CURRENT front forwards without its backend keyword */

/* The paths a call rarely takes (a cache miss, a new last hit, a failed fast test, an error) are
 * kept out of line, so that the common ones need no stack frame of theirs and stay short. */
#if defined(__GNUC__) || defined(__clang__)
#define COLD __attribute__((noinline, cold))
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define LIKELY(condition) __builtin_expect(!!(condition), 1)
#define UNLIKELY(condition) __builtin_expect(!!(condition), 0)
#else
#define COLD
#define NOINLINE
#define ALWAYS_INLINE inline
#define LIKELY(condition) (condition)
#define UNLIKELY(condition) (condition)
#endif

static PyObject *
call_python_front(FrontState *state, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return PyObject_Vectorcall(state->python, args, nargs, kwnames);
}

/* The current backend's name in types[0] (borrowed: the context or the globals dict holds it) and
 * 1, or 0 when the Python front must decide (in a torch.compile trace, or on any error). */
static ALWAYS_INLINE Py_ssize_t
current_backend_name(PyObject **types)
{
    if (PyList_GET_SIZE(trace_stack) != 0) {
        return 0;
    }
    PyObject *name = NULL;
    if (PyContextVar_Get(current_var, NULL, &name) < 0) {
        PyErr_Clear();
        return 0;
    }
    Py_XDECREF(name);
    if (name == NULL || name == Py_None) {
        if (PyList_GET_SIZE(process_backend) != 1) {
            return 0;
        }
        name = PyList_GET_ITEM(process_backend, 0);
    }
    types[0] = name;
    return 1;
}

/* The objects that key this call's cache entry, written to ``types``: returns 1 when the array
 * arguments share one type (types[0]) or for a CURRENT front (the backend name), the arity when
 * they are of mixed types (a tuple key), or 0 when the Python front must decide (too few
 * arguments, not a list/tuple, a mixed sequence, no array after a leading argument, in a
 * torch.compile trace). */
static Py_ssize_t
key_types(FrontState *state, PyObject *const *args, Py_ssize_t nargs, PyObject **types)
{
    Py_ssize_t arity = state->arity;
    if (arity == CURRENT) {
        return current_backend_name(types);
    }
    if (arity >= 1) {
        if (nargs < arity) {
            return 0;
        }
        int same = 1;
        for (Py_ssize_t i = 0; i < arity; i++) {
            types[i] = (PyObject *)Py_TYPE(args[i]);
            same &= types[i] == types[0];
        }
        return same ? 1 : arity;
    }
    PyObject *const *items;
    Py_ssize_t count;
    if (arity == SEQUENCE) {
        if (nargs < 1) {
            return 0;
        }
        PyObject *sequence = args[0];
        if (PyList_CheckExact(sequence)) {
            items = ((PyListObject *)sequence)->ob_item;
            count = PyList_GET_SIZE(sequence);
        }
        else if (PyTuple_CheckExact(sequence)) {
            items = ((PyTupleObject *)sequence)->ob_item;
            count = PyTuple_GET_SIZE(sequence);
        }
        else {
            return 0;
        }
    }
    else if (arity == VARIADIC) {
        items = args;
        count = nargs;
    }
    else { /* VARIADIC_AFTER_FIRST (no operands, or no first argument: count < 1) */
        items = args + 1;
        count = nargs - 1;
    }
    if (count < 1) {
        return 0;
    }
    types[0] = (PyObject *)Py_TYPE(items[0]);
    for (Py_ssize_t i = 1; i < count; i++) {
        if ((PyObject *)Py_TYPE(items[i]) != types[0]) {
            return 0;
        }
    }
    return 1;
}

/* Whether a CURRENT front's condition is well formed: a tuple of 1 to min_nargs tuples of types. */
static int
leading_types_condition(PyObject *condition, Py_ssize_t min_nargs)
{
    Py_ssize_t count = PyTuple_GET_SIZE(condition);
    if (count < 1 || count > min_nargs) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (!PyTuple_CheckExact(PyTuple_GET_ITEM(condition, i))) {
            return 0;
        }
    }
    return 1;
}

/* Whether the exact type of each leading argument args[i] is one of the tuple condition[i] (a
 * CURRENT front's native common case; leading_types_condition). */
static inline int
leading_types_match(PyObject *condition, PyObject *const *args)
{
    Py_ssize_t count = PyTuple_GET_SIZE(condition);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *types = PyTuple_GET_ITEM(condition, i);
        PyObject *type = (PyObject *)Py_TYPE(args[i]);
        Py_ssize_t n = PyTuple_GET_SIZE(types), j = 0;
        while (j < n && PyTuple_GET_ITEM(types, j) != type) {
            j++;
        }
        if (j == n) {
            return 0;
        }
    }
    return 1;
}

/* Whether a dtype condition is a pair of tuples (leading, shared): dtypes themselves are not tuples. */
static int
leading_shared_condition(PyObject *condition)
{
    return PyTuple_GET_SIZE(condition) == 2 && PyTuple_CheckExact(PyTuple_GET_ITEM(condition, 0))
           && PyTuple_CheckExact(PyTuple_GET_ITEM(condition, 1));
}

/* Whether ``dtype`` is (identically) one of the tuple ``allowed``. */
static inline int
one_of(PyObject *allowed, PyObject *dtype)
{
    Py_ssize_t n = PyTuple_GET_SIZE(allowed);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyTuple_GET_ITEM(allowed, i) == dtype) {
            return 1;
        }
    }
    return 0;
}

/* The target's __hedera_native__ (native, min_nargs, max_nargs, dtypes, keywords), checked: 1 with new
 * references in *native, *dtypes (NULL: no dtype condition) and *keywords, and the nargs, or 0 (none,
 * or malformed: the target is called as it is). */
static int
native_common_case(FrontState *state, PyObject *target, PyObject **native, PyObject **dtypes,
                   PyObject **keywords, Py_ssize_t *min_nargs, Py_ssize_t *max_nargs, int *same_shape,
                   int *leading)
{
    PyObject *spec = NULL;
    /* (without raising AttributeError for the targets that have none: most of them) */
#if PY_VERSION_HEX >= 0x030D0000
    int found = PyObject_GetOptionalAttr(target, native_attribute, &spec);
#else
    int found = _PyObject_LookupAttr(target, native_attribute, &spec);
#endif
    if (found <= 0) {
        PyErr_Clear();
        return 0;
    }
    int ok = PyTuple_CheckExact(spec) && (PyTuple_GET_SIZE(spec) == 5 || PyTuple_GET_SIZE(spec) == 6)
             && PyCallable_Check(PyTuple_GET_ITEM(spec, 0)) && PyLong_CheckExact(PyTuple_GET_ITEM(spec, 1))
             && PyLong_CheckExact(PyTuple_GET_ITEM(spec, 2)) && PyDict_CheckExact(PyTuple_GET_ITEM(spec, 4));
    if (ok) {
        *min_nargs = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 1));
        *max_nargs = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 2));
        if (*min_nargs < 0 || *max_nargs < *min_nargs || *max_nargs > MAX_FORWARDED) {
            PyErr_Clear();
            ok = 0;
        }
    }
    *leading = 0;
    if (ok) {
        PyObject *condition = PyTuple_GET_ITEM(spec, 3);
        if (condition == Py_None) {
            *dtypes = NULL;
        }
        else if (condition == Py_Ellipsis && state->arity >= 2 && *min_nargs >= state->arity) {
            Py_INCREF(condition);
            *dtypes = condition;
        }
        else if (PyTuple_CheckExact(condition)
                 && ((state->arity >= 1 && *min_nargs >= state->arity)
                     || (state->arity == CURRENT && leading_types_condition(condition, *min_nargs)))) {
            Py_INCREF(condition);
            *dtypes = condition;
            *leading = state->arity >= 2 && leading_shared_condition(condition);
        }
        else {
            ok = 0;
        }
    }
    *same_shape = 0;
    if (ok && PyTuple_GET_SIZE(spec) == 6) {
        *same_shape = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 5));
        /* (an error, or a shape condition without arrays to compare: none) */
        ok = *same_shape >= 0 && (*same_shape == 0 || (state->arity >= 2 && *min_nargs >= state->arity));
        PyErr_Clear();
        if (ok && *same_shape && (*dtypes == NULL || *dtypes == Py_Ellipsis || *leading)) {
            ok = 0; /* (the shapes are compared where the dtypes of one kind are) */
        }
        if (!ok) {
            Py_CLEAR(*dtypes);
        }
    }
    if (ok) {
        *native = PyTuple_GET_ITEM(spec, 0);
        *keywords = PyTuple_GET_ITEM(spec, 4);
        Py_INCREF(*native);
        Py_INCREF(*keywords);
    }
    Py_DECREF(spec);
    return ok;
}

/* Make (types, target) the front's last hit. New references are taken before the old ones are
 * dropped, since dropping one may run arbitrary code (a weakref callback, say). */
static COLD void
remember_hit(FrontState *state, PyObject *const *types, Py_ssize_t count, PyObject *target)
{
    PyObject *old_types[MAX_TUPLE_KEY];
    PyObject *old_target = state->hit_target;
    PyObject *old_native = state->hit_native;
    PyObject *old_native_dtypes = state->hit_native_dtypes;
    PyObject *old_native_keywords = state->hit_native_keywords;
    Py_ssize_t old_count = state->hit_count;
    for (Py_ssize_t i = 0; i < old_count; i++) {
        old_types[i] = state->hit_types[i];
    }
    PyObject *native = NULL, *dtypes = NULL, *keywords = NULL;
    Py_ssize_t min_nargs = 0, max_nargs = 0;
    int same_shape = 0, leading = 0;
    if (!native_common_case(state, target, &native, &dtypes, &keywords, &min_nargs, &max_nargs, &same_shape,
                            &leading)) {
        native = dtypes = keywords = NULL;
        same_shape = leading = 0;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_INCREF(types[i]);
        state->hit_types[i] = types[i];
    }
    Py_INCREF(target);
    state->hit_target = target;
    state->hit_count = count;
    for (Py_ssize_t i = 0; i < MAX_TUPLE_KEY; i++) {
        state->hot_types[i] = native != NULL ? NULL : count == 1 ? types[0] : i < count ? types[i] : NULL;
    }
    state->hit_native = native;
    state->hit_native_dtypes = dtypes;
    state->hit_native_keywords = keywords;
    state->hit_native_min_nargs = min_nargs;
    state->hit_native_nargs = max_nargs;
    state->hit_native_same_shape = same_shape;
    state->hit_native_leading = leading;
    for (Py_ssize_t i = 0; i < old_count; i++) {
        Py_DECREF(old_types[i]);
    }
    Py_XDECREF(old_target);
    Py_XDECREF(old_native);
    Py_XDECREF(old_native_dtypes);
    Py_XDECREF(old_native_keywords);
}

/* Whether a keyword's value is its default: the same object, an int or str of the default's exact type
 * and value, or a float of the same value and sign (True/False: the same object only, so that
 * keepdims=0 never passes for a default False). */
static int
is_default(PyObject *value, PyObject *fallback)
{
    if (value == fallback) {
        return 1;
    }
    if (Py_TYPE(value) != Py_TYPE(fallback)) {
        return 0;
    }
    if (PyFloat_CheckExact(value)) {
        double a = PyFloat_AS_DOUBLE(value), b = PyFloat_AS_DOUBLE(fallback);
        return a == b && copysign(1.0, a) == copysign(1.0, b);
    }
    if (!(PyLong_CheckExact(value) || PyUnicode_CheckExact(value))) {
        return 0;
    }
    int equal = PyObject_RichCompareBool(value, fallback, Py_EQ);
    if (equal < 0) {
        PyErr_Clear();
    }
    return equal == 1;
}

/* What the native gets for the value of a translated keyword (entry: (default, pairs, types), a
 * borrowed reference from entry or the value itself), or NULL: a value it has no translation for. */
static PyObject *
translated_keyword(PyObject *entry, PyObject *value)
{
    if (PyTuple_GET_SIZE(entry) != 3) {
        return NULL;
    }
    PyObject *pairs = PyTuple_GET_ITEM(entry, 1), *types = PyTuple_GET_ITEM(entry, 2);
    if (!PyTuple_CheckExact(pairs) || !PyTuple_CheckExact(types)) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(pairs) - 1;
    for (Py_ssize_t i = 0; i < n; i += 2) {
        if (PyTuple_GET_ITEM(pairs, i) == value) {
            return PyTuple_GET_ITEM(pairs, i + 1);
        }
    }
    n = PyTuple_GET_SIZE(types);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyTuple_GET_ITEM(types, i) == (PyObject *)Py_TYPE(value)) {
            return value;
        }
    }
    return NULL;
}

/* The keywords the native gets, for a call whose keywords are all known to hit_native_keywords: each
 * at its default is dropped, each whose entry is Ellipsis is forwarded as it is, each translated one
 * (translated_keyword) as its translation. Returns 1 with
 * *kept (a new tuple, or NULL: none) and the forwarded values appended to forwarded[nargs...], or 0
 * (an unknown keyword, one off its default, too many, or no memory: the shim decides). */
static int
native_keywords(PyObject *keywords, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                PyObject **forwarded, PyObject **kept)
{
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    if (nargs + nkw > MAX_FORWARDED) {
        return 0;
    }
    Py_ssize_t count = 0;
    PyObject *names[MAX_FORWARDED];
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        PyObject *entry = PyDict_GetItemWithError(keywords, name);
        if (entry == NULL) {
            PyErr_Clear();
            return 0;
        }
        PyObject *value = args[nargs + i];
        if (PyTuple_CheckExact(entry)) { /* a translated keyword: (default, pairs, types) */
            if (is_default(value, PyTuple_GET_ITEM(entry, 0))) {
                continue;
            }
            value = translated_keyword(entry, value);
            if (value == NULL) {
                return 0;
            }
        }
        else if (entry != Py_Ellipsis) {
            if (!is_default(value, entry)) {
                return 0;
            }
            continue;
        }
        names[count] = name;
        forwarded[nargs + count] = value;
        count++;
    }
    *kept = NULL;
    if (count == 0) {
        return 1;
    }
    if (count == nkw) {
        Py_INCREF(kwnames);
        *kept = kwnames;
        return 1;
    }
    PyObject *tuple = PyTuple_New(count);
    if (tuple == NULL) {
        PyErr_Clear();
        return 0;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_INCREF(names[i]);
        PyTuple_SET_ITEM(tuple, i, names[i]);
    }
    *kept = tuple;
    return 1;
}

/* Reading .dtype through a type's getset descriptor, found once, skips the generic attribute lookup:
 * 7 ns of the 33 a torch tensor's .dtype costs (torch's getter is the rest), 7 of NumPy's 9; the
 * same-dtype test of a binary shim reads it twice. A slot is used while its type's version tag is
 * the one it was filled under (any change to the type or its bases resets the tag), for types that
 * look attributes up generically (a getset descriptor, a data descriptor, then wins over the
 * instance dict: the object PyObject_GetAttr returns). */
#define DTYPE_SLOTS 4
typedef struct {
    PyTypeObject *type; /* (borrowed: compared only with the type of a live object) */
    unsigned int version;
    getter get;
    void *closure;
} DtypeSlot;
static DtypeSlot dtype_slots[DTYPE_SLOTS];
static int dtype_next_slot;

/* obj.dtype (a new reference), or NULL with an exception set. */
static PyObject *
read_dtype(PyObject *obj)
{
    PyTypeObject *type = Py_TYPE(obj);
    for (int i = 0; i < DTYPE_SLOTS; i++) {
        DtypeSlot *slot = &dtype_slots[i];
        if (slot->type == type && slot->version == type->tp_version_tag && slot->version != 0) {
            return slot->get(obj, slot->closure);
        }
    }
    if (type->tp_getattro == PyObject_GenericGetAttr) {
        PyObject *descr = _PyType_Lookup(type, dtype_attribute); /* (borrowed; gives the type a tag) */
        if (descr != NULL && Py_IS_TYPE(descr, &PyGetSetDescr_Type) && type->tp_version_tag != 0
            && PyType_IsSubtype(type, PyDescr_TYPE(descr))) {
            PyGetSetDef *def = ((PyGetSetDescrObject *)descr)->d_getset;
            if (def->get != NULL) {
                DtypeSlot *slot = &dtype_slots[dtype_next_slot];
                dtype_next_slot = (dtype_next_slot + 1) % DTYPE_SLOTS;
                slot->type = type;
                slot->version = type->tp_version_tag;
                slot->get = def->get;
                slot->closure = def->closure;
                return def->get(obj, def->closure);
            }
        }
    }
    return PyObject_GetAttr(obj, dtype_attribute);
}

/* Whether the first ``count`` arguments have equal .shape (0 also on an error, left set). */
static int
same_shapes(PyObject *const *args, Py_ssize_t count)
{
    PyObject *first = PyObject_GetAttr(args[0], shape_attribute);
    if (first == NULL) {
        return 0;
    }
    int ok = 1;
    for (Py_ssize_t i = 1; ok && i < count; i++) {
        PyObject *other = PyObject_GetAttr(args[i], shape_attribute);
        ok = other != NULL && PyObject_RichCompareBool(first, other, Py_EQ) == 1;
        Py_XDECREF(other);
    }
    Py_DECREF(first);
    return ok;
}

/* The last hit's native common case for this call (a new reference), or NULL (without an error
 * set): hit_native_nargs positional arguments (min to max), keywords that native_keywords accepts
 * (their names for the native in *kept, their values after the positional ones in forwarded), and,
 * under a dtype condition, array arguments of one type whose .dtype is one object of
 * hit_native_dtypes (and, under a shape condition, whose .shape are equal). */
static PyObject *
native_for_call(FrontState *state, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                PyObject **forwarded, PyObject **kept, PyObject **keywords)
{
    *kept = NULL;
    *keywords = NULL;
    if (state->hit_native == NULL || nargs < state->hit_native_min_nargs || nargs > state->hit_native_nargs) {
        return NULL;
    }
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) != 0) {
        /* (a translated keyword's value is borrowed from this dict, which .dtype below may run Python
         * code that drops: the caller holds it until the native returns) */
        *keywords = state->hit_native_keywords;
        Py_INCREF(*keywords);
        if (!native_keywords(*keywords, args, nargs, kwnames, forwarded, kept)) {
            Py_CLEAR(*keywords);
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        forwarded[i] = args[i];
    }
    PyObject *native = state->hit_native;
    PyObject *allowed = state->hit_native_dtypes;
    if (allowed == NULL) {
        Py_INCREF(native);
        return native;
    }
    Py_ssize_t arrays = state->arity; /* >= 1 and <= the least nargs, or CURRENT (native_common_case) */
    if (arrays == CURRENT) {
        if (leading_types_match(allowed, args)) {
            Py_INCREF(native);
            return native;
        }
        Py_CLEAR(*kept);
        Py_CLEAR(*keywords);
        return NULL;
    }
    for (Py_ssize_t i = 1; i < arrays; i++) {
        if (Py_TYPE(args[i]) != Py_TYPE(args[0])) {
            Py_CLEAR(*kept);
            Py_CLEAR(*keywords);
            return NULL;
        }
    }
    if (allowed == Py_Ellipsis) { /* (one type, checked above) */
        Py_INCREF(native);
        return native;
    }
    /* (.dtype may run Python code that changes the front's last hit: hold on to this one's) */
    Py_INCREF(native);
    Py_INCREF(allowed);
    int same_shape = state->hit_native_same_shape;
    int ok = 0;
    Py_ssize_t start = 0; /* the first of the arrays that share one dtype */
    PyObject *shared = allowed;
    if (state->hit_native_leading) {
        PyObject *leading = read_dtype(args[0]);
        ok = leading != NULL && one_of(PyTuple_GET_ITEM(allowed, 0), leading);
        Py_XDECREF(leading);
        start = 1;
        shared = PyTuple_GET_ITEM(allowed, 1);
    }
    PyObject *first = ok || start == 0 ? read_dtype(args[start]) : NULL;
    if (first != NULL) {
        ok = one_of(shared, first);
        for (Py_ssize_t i = start + 1; ok && i < arrays; i++) {
            PyObject *other = read_dtype(args[i]);
            ok = other == first;
            Py_XDECREF(other);
        }
        Py_DECREF(first);
    }
    else {
        ok = 0;
    }
    if (ok && same_shape) {
        ok = same_shapes(args, arrays);
    }
    PyErr_Clear();
    Py_DECREF(allowed);
    if (!ok) {
        Py_DECREF(native);
        Py_CLEAR(*kept);
        Py_CLEAR(*keywords);
        return NULL;
    }
    return native;
}

/* The cache's function for the key ``types`` (count of them), which is not the last hit's, made
 * the last hit (a borrowed reference), or NULL (an error may be set). */
static COLD PyObject *
cached_target_miss(FrontState *state, PyObject *const *types, Py_ssize_t count)
{
    PyObject *target;
    if (count == 1) {
        target = PyDict_GetItemWithError(state->cache, types[0]);
    }
    else {
        PyObject *key = PyTuple_New(count);
        if (key == NULL) {
            return NULL;
        }
        for (Py_ssize_t i = 0; i < count; i++) {
            Py_INCREF(types[i]);
            PyTuple_SET_ITEM(key, i, types[i]);
        }
        target = PyDict_GetItemWithError(state->cache, key);
        Py_DECREF(key);
    }
    if (target != NULL) {
        remember_hit(state, types, count, target);
    }
    return target;
}

/* The cached backend function for these arguments (a borrowed reference), or NULL without an
 * error set when the Python front must decide. The front's last hit is checked before its dict. */
static inline PyObject *
cached_target(FrontState *state, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *types[MAX_TUPLE_KEY];
    Py_ssize_t count = key_types(state, args, nargs, types);
    if (count == 0) {
        return NULL;
    }
    if (count == state->hit_count) {
        int hit = 1;
        for (Py_ssize_t i = 0; i < count; i++) {
            hit &= types[i] == state->hit_types[i];
        }
        if (hit) {
            return state->hit_target;
        }
    }
    return cached_target_miss(state, types, count);
}

/* The error path: hand the exception just raised, with the call's arguments, to the front's
 * explain(exception, args, kwargs). On return the exception is set again (explain found nothing to
 * say); if explain raises, its exception (hedera's, chained to the framework's) is the one set. */
static COLD void
explain_failure(FrontState *state, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (traceback != NULL) {
        PyException_SetTraceback(value, traceback);
    }
    PyObject *positional = PyTuple_New(nargs);
    PyObject *keywords = PyDict_New();
    if (positional == NULL || keywords == NULL) {
        goto failed;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        Py_INCREF(args[i]);
        PyTuple_SET_ITEM(positional, i, args[i]);
    }
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        if (PyDict_SetItem(keywords, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
            goto failed;
        }
    }
    PyObject *said = PyObject_CallFunctionObjArgs(state->explain, value, positional, keywords, NULL);
    Py_DECREF(positional);
    Py_DECREF(keywords);
    if (said == NULL) { /* explain raised: hedera's error replaces the framework's */
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(traceback);
        return;
    }
    Py_DECREF(said);
    PyErr_Restore(type, value, traceback);
    return;
failed:
    Py_XDECREF(positional);
    Py_XDECREF(keywords);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
}

static PyObject *front_call_named(FrontState *state, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames, Py_ssize_t at);

/* The index in kwnames of the keyword "backend", or -1. Keyword names of calls written in Python
 * are interned, so the pointer test almost always decides; a name built at run time is compared. */
static Py_ssize_t
backend_keyword_index(PyObject *kwnames)
{
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        if (name == backend_keyword
            || (PyUnicode_GET_LENGTH(name) == 7 && PyUnicode_Compare(name, backend_keyword) == 0)) {
            return i;
        }
    }
    return -1;
}

/* ---- up-front argument checks ---------------------------------------------------------------- */

/* Whether the exact int value is at least minimum: read off a one-digit int's digit directly. */
static inline int
int_at_least(PyObject *value, long minimum)
{
#if PY_VERSION_HEX >= 0x030C0000
    if (PyUnstable_Long_IsCompact((PyLongObject *)value)) {
        return PyUnstable_Long_CompactValue((PyLongObject *)value) >= minimum;
    }
#else
    Py_ssize_t size = Py_SIZE(value);
    if (size >= -1 && size <= 1) {
        return size * (long)((PyLongObject *)value)->ob_digit[0] >= minimum;
    }
#endif
    int overflow;
    long n = PyLong_AsLongAndOverflow(value, &overflow);
    return overflow == 0 ? n >= minimum : overflow > 0;
}

static inline int
fast_int(const ArgumentCheck *check, PyObject *value)
{
    if (!PyLong_CheckExact(value)) {
        return 0;
    }
    return !check->has_minimum || int_at_least(value, check->minimum);
}

static int
fast_ints(const ArgumentCheck *check, PyObject *const *items, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!fast_int(check, items[i])) {
            return 0;
        }
    }
    return 1;
}

/* Whether value is a tuple (a subclass too) or an exact list of exact ints, of any value. */
static int
fast_any_ints(PyObject *value)
{
    PyObject *const *items;
    Py_ssize_t n;
    if (PyList_CheckExact(value)) {
        items = ((PyListObject *)value)->ob_item;
        n = PyList_GET_SIZE(value);
    }
    else if (PyTuple_Check(value)) {
        items = ((PyTupleObject *)value)->ob_item;
        n = PyTuple_GET_SIZE(value);
    }
    else {
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyLong_CheckExact(items[i])) {
            return 0;
        }
    }
    return 1;
}

/* tensordot's axes as a pair: a tuple or list of two, each an exact int or fast_any_ints. */
static int
fast_contraction_pair(PyObject *value)
{
    PyObject *first, *second;
    if ((PyList_CheckExact(value) || PyTuple_Check(value)) && Py_SIZE(value) == 2) {
        first = PySequence_Fast_GET_ITEM(value, 0);
        second = PySequence_Fast_GET_ITEM(value, 1);
        return (PyLong_CheckExact(first) || fast_any_ints(first))
               && (PyLong_CheckExact(second) || fast_any_ints(second));
    }
    return 0;
}

/* Whether the fast test accepts value (0: check() decides). An exact int, the common value of
 * every kind, is tested first. */
static inline int
fast_accepts(const ArgumentCheck *check, PyObject *value)
{
    if (PyLong_CheckExact(value)) {
        return check->fast != FAST_STR && check->fast != FAST_BOOL
               && (!check->has_minimum || int_at_least(value, check->minimum));
    }
    if (value == Py_None) {
        return check->none_ok;
    }
    if (check->fast == FAST_BOOL) {
        return value == Py_True || value == Py_False;
    }
    if (check->fast == FAST_STR) {
        return PyUnicode_CheckExact(value);
    }
    if (check->fast == FAST_NUMBER) {
        return PyFloat_CheckExact(value) || value == Py_True || value == Py_False
               || PyComplex_CheckExact(value);
    }
    if (check->fast == FAST_SECTIONS) {
        return fast_any_ints(value);
    }
    if (check->fast == FAST_CONTRACTION) {
        return fast_contraction_pair(value);
    }
    if (check->fast == FAST_INT_SEQUENCE && PyList_CheckExact(value)) {
        return fast_ints(check, ((PyListObject *)value)->ob_item, PyList_GET_SIZE(value));
    }
    if ((check->fast == FAST_INTS || check->fast == FAST_INT_SEQUENCE) && PyTuple_Check(value)) {
        return fast_ints(check, ((PyTupleObject *)value)->ob_item, PyTuple_GET_SIZE(value));
    }
    return 0;
}

/* The index among the call's arguments of the keyword argument name, or -1 (not given). Keyword
 * names of calls written in Python are interned, as the checks' names are: the pointer test almost
 * always decides. */
static Py_ssize_t
keyword_index(PyObject *name, Py_ssize_t nargs, PyObject *kwnames)
{
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        if (PyTuple_GET_ITEM(kwnames, i) == name) {
            return nargs + i;
        }
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(name);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *other = PyTuple_GET_ITEM(kwnames, i);
        if (PyUnicode_GET_LENGTH(other) == length && PyUnicode_Compare(other, name) == 0) {
            return nargs + i;
        }
    }
    return -1;
}

/* Run the checks: 0 with the call's arguments in *args, or -1 with hedera's error set where
 * check(name, value) refused an argument. Where check hands back another value (a NumPy integer
 * scalar as an int) the arguments are copied to storage (MAX_FORWARDED entries) with it in place,
 * *args points there, and *owned (a new list) holds the new values. */
static int
check_arguments(FrontState *state, PyObject *const **args, Py_ssize_t nargs, PyObject *kwnames,
                PyObject **storage, PyObject **owned)
{
    Py_ssize_t total = nargs + (kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames));
    for (Py_ssize_t i = 0; i < state->check_count; i++) {
        const ArgumentCheck *check = &state->checks[i];
        Py_ssize_t at = -1;
        if (check->position >= 0 && check->position < nargs) {
            at = check->position;
        }
        else if (kwnames != NULL) {
            at = keyword_index(check->name, nargs, kwnames);
        }
        if (at < 0 || fast_accepts(check, (*args)[at])) {
            continue;
        }
        PyObject *value = PyObject_CallFunctionObjArgs(state->check, check->name, (*args)[at], NULL);
        if (value == NULL) {
            return -1;
        }
        if (value == (*args)[at] || total > MAX_FORWARDED) {
            Py_DECREF(value);
            continue;
        }
        if (*owned == NULL) {
            *owned = PyList_New(0);
            if (*owned == NULL) {
                Py_DECREF(value);
                return -1;
            }
            for (Py_ssize_t j = 0; j < total; j++) {
                storage[j] = (*args)[j];
            }
            *args = storage;
        }
        if (PyList_Append(*owned, value) < 0) {
            Py_DECREF(value);
            return -1;
        }
        Py_DECREF(value);
        storage[at] = value; /* (the list holds it) */
    }
    return 0;
}

/* The checks of make_front, a tuple of (name, position, fast, none_ok, minimum or None), into
 * checks[MAX_CHECKS]: their count, or -1 with an error set (a malformed entry, too many). */
static Py_ssize_t
parse_checks(PyObject *spec, ArgumentCheck *checks)
{
    Py_ssize_t n = spec == NULL ? 0 : PyTuple_GET_SIZE(spec);
    if (n > MAX_CHECKS) {
        PyErr_Format(PyExc_ValueError, "make_front: at most %d checks, got %zd", MAX_CHECKS, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name, *minimum;
        Py_ssize_t position;
        int fast, none_ok;
        long least = 0;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(spec, i), "UnipO:make_front checks", &name, &position,
                              &fast, &none_ok, &minimum)) {
            goto failed;
        }
        if (minimum != Py_None) {
            least = PyLong_AsLong(minimum);
            if (least == -1 && PyErr_Occurred()) {
                goto failed;
            }
        }
        if (position < -1 || position > 32767 || fast < 0 || fast > 255 || least < INT_MIN || least > INT_MAX) {
            PyErr_SetString(PyExc_ValueError, "make_front: a check out of range");
            goto failed;
        }
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        checks[i].name = name;
        checks[i].position = (short)position;
        checks[i].fast = (unsigned char)fast;
        checks[i].none_ok = none_ok != 0;
        checks[i].has_minimum = minimum != Py_None;
        checks[i].minimum = (int)least;
        continue;
    failed:
        for (Py_ssize_t j = 0; j < i; j++) {
            Py_CLEAR(checks[j].name);
        }
        return -1;
    }
    return n;
}

static inline PyObject *front_call_checked(FrontState *state, PyObject *const *args, Py_ssize_t nargs,
                                           PyObject *kwnames);

/* Whether the fast tests accept every checked argument of a call without keywords. */
static inline int
positional_checks_pass(const FrontState *state, PyObject *const *args, Py_ssize_t nargs)
{
    for (Py_ssize_t i = 0; i < state->check_count; i++) {
        const ArgumentCheck *check = &state->checks[i];
        if (check->position >= 0 && check->position < nargs && !fast_accepts(check, args[check->position])) {
            return 0;
        }
    }
    return 1;
}

/* A call with keywords, or one whose fast tests did not all pass: the checks, then the call. */
static COLD PyObject *
front_call_checking(FrontState *state, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *storage[MAX_FORWARDED];
    PyObject *owned = NULL;
    if (check_arguments(state, &args, nargs, kwnames, storage, &owned) < 0) {
        Py_XDECREF(owned);
        return NULL;
    }
    PyObject *result = front_call_checked(state, args, nargs, kwnames);
    Py_XDECREF(owned);
    return result;
}

/* The backend function raised (result NULL): an Exception goes to the front's explain. */
static COLD PyObject *
front_call_failed(FrontState *state, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (PyErr_ExceptionMatches(PyExc_Exception)) {
        explain_failure(state, args, nargs, kwnames);
    }
    return NULL; /* (KeyboardInterrupt and the like pass through untouched) */
}

/* target(*args): through its vectorcall slot where it has one (numpy's ufuncs, torch's and the
 * builtins do), as the interpreter calls it, without PyObject_Vectorcall's out-of-line steps. */
static inline PyObject *
call_directly(PyObject *target, PyObject *const *args, Py_ssize_t nargs)
{
    PyTypeObject *type = Py_TYPE(target);
    if (LIKELY(PyType_HasFeature(type, Py_TPFLAGS_HAVE_VECTORCALL))) {
        vectorcallfunc call; /* (PyVectorcall_Function, which is not inline before 3.12) */
        memcpy(&call, (char *)target + type->tp_vectorcall_offset, sizeof(call));
        if (LIKELY(call != NULL)) {
            return call(target, args, (size_t)nargs, NULL);
        }
    }
    return PyObject_Vectorcall(target, args, nargs, NULL);
}

/* For a creation call (a CURRENT front, positional arguments only) on the last hit's backend: the
 * function to call, native where the last hit's native common case takes the call (*native 1), else
 * the target (borrowed references); NULL: the general path decides. */
static inline PyObject *
current_hit(FrontState *state, PyObject *const *args, Py_ssize_t nargs, int *native)
{
    PyObject *name;
    if (state->hit_count != 1 || !current_backend_name(&name) || name != state->hit_types[0]) {
        return NULL;
    }
    *native = 0;
    if (state->hit_native != NULL && nargs >= state->hit_native_min_nargs && nargs <= state->hit_native_nargs) {
        PyObject *allowed = state->hit_native_dtypes; /* (the exact types of the leading arguments, as
                                                       * many as min_nargs at most: native_common_case) */
        if (allowed == NULL || leading_types_match(allowed, args)) {
            *native = 1;
            return state->hit_native;
        }
    }
    return state->hit_target;
}

/* A creation call (current_hit): native's answer, or where native raises an Exception, the target's
 * (its answer or its error stands, as in front_call_checked). */
static PyObject *
call_current(FrontState *state, PyObject *callee, int native, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *target = state->hit_target;
    Py_INCREF(callee); /* (a call of this front inside may change its last hit) */
    Py_INCREF(target);
    PyObject *result = call_directly(callee, args, nargs);
    Py_DECREF(callee);
    if (UNLIKELY(result == NULL) && native && PyErr_ExceptionMatches(PyExc_Exception)) {
        PyErr_Clear(); /* the shim decides */
        result = PyObject_Vectorcall(target, args, nargs, NULL);
    }
    Py_DECREF(target);
    if (LIKELY(result != NULL)) {
        return result;
    }
    return front_call_failed(state, args, nargs, NULL);
}

/* A call with fewer positional arguments than the front's arity, whose missing arrays are all
 * optional (they default to None) and whose keywords, if any, all name such arrays: its arguments
 * as the Python front passes them to the backend function, positionally, the omitted ones None
 * (hd.clip(x, max=1.0): x, None, 1.0), in completed[arity]; returns 1, or 0 where the call is not
 * one of those (too few arguments, another keyword, an array given twice): the general path then
 * decides as before (the Python front, which raises the TypeError of such a call). */
static int
complete_optional_arrays(const FrontState *state, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames, PyObject **completed)
{
    Py_ssize_t arity = state->arity;
    Py_ssize_t first_optional = arity - state->optional_count;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs < first_optional || nkw > arity - nargs) {
        return 0;
    }
    Py_ssize_t found = 0;
    for (Py_ssize_t i = 0; i < arity; i++) {
        PyObject *value = i < nargs ? args[i] : Py_None;
        if (i >= nargs && nkw != 0) {
            Py_ssize_t at = keyword_index(state->optional_names[i - first_optional], nargs, kwnames);
            if (at >= 0) {
                value = args[at];
                found++;
            }
        }
        completed[i] = value;
    }
    return found == nkw;
}

static PyObject *front_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

/* Whether a call with nargs positional arguments and these keywords may bind to the Python front's
 * signature: not too many positional arguments, and each keyword one of its parameters, not also
 * given by position (a missing argument is left to the backend function and the error path). */
static int
fits_signature(const FrontState *state, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs > state->max_positional) {
        return 0;
    }
    if (kwnames == NULL || state->keyword_names == NULL) {
        return 1;
    }
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    Py_ssize_t n = PyTuple_GET_SIZE(state->keyword_names);
    PyObject *const *names = ((PyTupleObject *)state->keyword_names)->ob_item;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *keyword = PyTuple_GET_ITEM(kwnames, i);
        Py_ssize_t j = 0;
        while (j < n && names[j] != keyword) {
            j++;
        }
        if (j == n) { /* (a name built at run time is not interned: compared) */
            for (j = 0; j < n && PyUnicode_Compare(names[j], keyword) != 0; j++) {
            }
            PyErr_Clear();
        }
        if (j == n || (j < state->keyword_positional && state->keyword_base + j < nargs)) {
            return 0;
        }
    }
    return 1;
}

/* Every call of a front that is not the hot path's (front_call; out of line: its frame would cost
 * the hot path a few register saves). */
static NOINLINE PyObject *
front_call_general(FrontState *state, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (UNLIKELY(!fits_signature(state, nargs, kwnames))) {
        return call_python_front(state, args, nargs, kwnames); /* (which raises CPython's TypeError) */
    }
    if (state->optional_count != 0 && nargs < state->arity) {
        PyObject *completed[MAX_TUPLE_KEY]; /* (borrowed: the caller's arguments, and None) */
        if (complete_optional_arrays(state, args, nargs, kwnames, completed)) {
            return front_call((PyObject *)state, completed, state->arity, NULL);
        }
    }
    if (state->check_count != 0 && !(kwnames == NULL && nargs <= state->check_position)) {
        /* (an exact int, the common value of a checked argument, skips the slow path, as an
         * argument not given does) */
        if (kwnames != NULL || !positional_checks_pass(state, args, nargs)) {
            return front_call_checking(state, args, nargs, kwnames);
        }
    }
    if (kwnames == NULL && state->arity == CURRENT) {
        int native;
        PyObject *callee = current_hit(state, args, nargs, &native);
        if (callee != NULL) {
            return call_current(state, callee, native, args, nargs);
        }
    }
    return front_call_checked(state, args, nargs, kwnames);
}

/* The call of a front. The hot path is the common call of a one-to-one front: positional array
 * arguments of the last hit's types (hot_types), no argument to check, a target without a native
 * common case; it reads the state's first fields only, and calls the target with the caller's
 * arguments as they are. */
static PyObject *
front_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    FrontState *state = (FrontState *)self;
    if (LIKELY(kwnames == NULL) && nargs >= state->hot_arity && nargs <= state->hot_max_nargs) {
        Py_ssize_t arity = state->hot_arity;
        if (LIKELY((PyObject *)Py_TYPE(args[0]) == state->hot_types[0])
            && (arity == 1 || ((PyObject *)Py_TYPE(args[1]) == state->hot_types[1]
                               && (arity == 2 || (PyObject *)Py_TYPE(args[2]) == state->hot_types[2])))) {
            PyObject *target = state->hit_target;
            Py_INCREF(target); /* (a call of this front inside may change its last hit) */
            PyObject *result = call_directly(target, args, nargs);
            Py_DECREF(target);
            if (LIKELY(result != NULL)) {
                return result;
            }
            return front_call_failed(state, args, nargs, NULL);
        }
    }
    return front_call_general(state, args, nargs, kwnames);
}

/* The call once its arguments are checked. */
static inline PyObject *
front_call_checked(FrontState *state, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (kwnames != NULL && state->arity == CURRENT) {
        Py_ssize_t at = backend_keyword_index(kwnames);
        if (at >= 0) {
            return front_call_named(state, args, nargs, kwnames, at);
        }
    }
    PyObject *target = cached_target(state, args, nargs);
    if (target == NULL) {
        if (PyErr_Occurred()) { /* an unhashable type object, say: let the Python front decide */
            if (!PyErr_ExceptionMatches(PyExc_Exception)) {
                return NULL;
            }
            PyErr_Clear();
        }
        return call_python_front(state, args, nargs, kwnames);
    }
    Py_INCREF(target); /* the cache is a dict that Python code may change during the call */
    PyObject *forwarded[MAX_FORWARDED];
    PyObject *kept, *keywords;
    PyObject *native = native_for_call(state, args, nargs, kwnames, forwarded, &kept, &keywords);
    PyObject *result;
    if (native != NULL) { /* (the keywords at their defaults dropped) */
        result = PyObject_Vectorcall(native, forwarded, nargs, kept);
        Py_DECREF(native);
        Py_XDECREF(kept);
        Py_XDECREF(keywords);
        if (result == NULL && PyErr_ExceptionMatches(PyExc_Exception)) {
            PyErr_Clear(); /* the shim decides (its answer, or its error): see the top of this file */
            result = PyObject_Vectorcall(target, args, nargs, kwnames);
        }
    }
    else {
        result = PyObject_Vectorcall(target, args, nargs, kwnames);
    }
    Py_DECREF(target);
    if (LIKELY(result != NULL)) {
        return result;
    }
    return front_call_failed(state, args, nargs, kwnames);
}

/* A CURRENT front called with backend=... (kwnames[at]): a str names the backend whose function
 * the cache holds under that name, None the current backend; the call goes to that function
 * without the backend keyword. Any other value, a cache miss, a torch.compile trace or too many
 * arguments: the Python front decides. */
static PyObject *
front_call_named(FrontState *state, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                 Py_ssize_t at)
{
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    PyObject *name = args[nargs + at];
    PyObject *target = NULL;
    if (nargs + nkw <= MAX_FORWARDED && PyList_GET_SIZE(trace_stack) == 0) {
        if (name == Py_None) {
            target = cached_target(state, args, nargs);
        }
        else if (PyUnicode_CheckExact(name)) {
            target = PyDict_GetItemWithError(state->cache, name);
        }
    }
    if (target == NULL) {
        if (PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_Exception)) {
                return NULL;
            }
            PyErr_Clear();
        }
        return call_python_front(state, args, nargs, kwnames);
    }
    PyObject *forwarded[MAX_FORWARDED];
    for (Py_ssize_t i = 0; i < nargs; i++) {
        forwarded[i] = args[i];
    }
    PyObject *other_names = NULL;
    if (nkw > 1) {
        other_names = PyTuple_New(nkw - 1);
        if (other_names == NULL) {
            return NULL;
        }
        for (Py_ssize_t i = 0, j = 0; i < nkw; i++) {
            if (i == at) {
                continue;
            }
            PyObject *keyword = PyTuple_GET_ITEM(kwnames, i);
            Py_INCREF(keyword);
            PyTuple_SET_ITEM(other_names, j, keyword);
            forwarded[nargs + j] = args[nargs + i];
            j++;
        }
    }
    Py_INCREF(target);
    PyObject *result = PyObject_Vectorcall(target, forwarded, nargs, other_names);
    Py_DECREF(target);
    if (result == NULL && PyErr_ExceptionMatches(PyExc_Exception)) {
        explain_failure(state, args, nargs, kwnames); /* with backend=: the Python front's signature */
    }
    Py_XDECREF(other_names);
    return result;
}

static int
state_traverse(FrontState *state, visitproc visit, void *arg)
{
    Py_VISIT(state->python);
    Py_VISIT(state->explain);
    Py_VISIT(state->cache);
    Py_VISIT(state->check);
    for (Py_ssize_t i = 0; i < state->hit_count; i++) {
        Py_VISIT(state->hit_types[i]);
    }
    Py_VISIT(state->hit_target);
    Py_VISIT(state->hit_native);
    Py_VISIT(state->hit_native_dtypes);
    Py_VISIT(state->hit_native_keywords);
    return 0;
}

static int
state_clear(FrontState *state)
{
    Py_CLEAR(state->python);
    Py_CLEAR(state->explain);
    Py_CLEAR(state->cache);
    Py_CLEAR(state->check);
    Py_ssize_t count = state->hit_count;
    state->hit_count = 0;
    for (Py_ssize_t i = 0; i < MAX_TUPLE_KEY; i++) {
        state->hot_types[i] = NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_CLEAR(state->hit_types[i]);
    }
    Py_CLEAR(state->hit_target);
    Py_CLEAR(state->hit_native);
    Py_CLEAR(state->hit_native_dtypes);
    Py_CLEAR(state->hit_native_keywords);
    return 0;
}

static void
state_dealloc(FrontState *state)
{
    PyObject_GC_UnTrack(state);
    state_clear(state);
    Py_CLEAR(state->name);
    Py_CLEAR(state->doc);
    for (Py_ssize_t i = 0; i < state->check_count; i++) {
        Py_CLEAR(state->checks[i].name);
    }
    for (Py_ssize_t i = 0; i < state->optional_count; i++) {
        Py_CLEAR(state->optional_names[i]);
    }
    Py_CLEAR(state->keyword_names);
    Py_TYPE(state)->tp_free((PyObject *)state);
}

/* Pickling a builtin whose __self__ is not a module pickles (getattr, (__self__, __name__)); a
 * state pickles as the module its front lives in, so that a front unpickles to itself. */
static PyObject *
state_reduce(FrontState *state, PyObject *Py_UNUSED(ignored))
{
    PyObject *module_name = PyObject_GetAttrString(state->python, "__module__");
    if (module_name == NULL) {
        return NULL;
    }
    PyObject *importlib = PyImport_ImportModule("importlib");
    if (importlib == NULL) {
        Py_DECREF(module_name);
        return NULL;
    }
    PyObject *import_module = PyObject_GetAttrString(importlib, "import_module");
    Py_DECREF(importlib);
    if (import_module == NULL) {
        Py_DECREF(module_name);
        return NULL;
    }
    PyObject *result = Py_BuildValue("(N(N))", import_module, module_name);
    return result;
}

static PyMethodDef state_methods[] = {
    {"__reduce__", (PyCFunction)state_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject FrontStateType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hedera._fastfront.front",
    .tp_doc = "The state of one hedera front function: its Python front, explain, cache and arity.",
    .tp_basicsize = sizeof(FrontState),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)state_traverse,
    .tp_clear = (inquiry)state_clear,
    .tp_dealloc = (destructor)state_dealloc,
    .tp_methods = state_methods,
};

static PyObject *
make_front(PyObject *module, PyObject *args)
{
    PyObject *python, *explain, *cache, *name, *doc, *module_name, *check_spec = NULL, *check = Py_None;
    PyObject *optional = NULL, *signature = Py_None;
    Py_ssize_t arity;
    if (!PyArg_ParseTuple(args, "OOO!nSSU|O!OO!O:make_front", &python, &explain, &PyDict_Type, &cache, &arity,
                          &name, &doc, &module_name, &PyTuple_Type, &check_spec, &check, &PyTuple_Type,
                          &optional, &signature)) {
        return NULL;
    }
    /* signature: (max_positional or -1: *args, keyword names or None: **kwargs, keyword_base,
     * keyword_positional), or None: any call may bind */
    Py_ssize_t max_positional = -1, keyword_base = 0, keyword_positional = 0;
    PyObject *keyword_spec = Py_None;
    if (signature != Py_None
        && !PyArg_ParseTuple(signature, "nOnn:make_front signature", &max_positional, &keyword_spec,
                             &keyword_base, &keyword_positional)) {
        return NULL;
    }
    PyObject *keyword_names = NULL;
    if (keyword_spec != Py_None) {
        if (!PyTuple_CheckExact(keyword_spec) || keyword_base < 0 || keyword_positional < 0
            || keyword_positional > PyTuple_GET_SIZE(keyword_spec)) {
            PyErr_SetString(PyExc_ValueError, "make_front: a malformed signature");
            return NULL;
        }
        Py_ssize_t n = PyTuple_GET_SIZE(keyword_spec);
        keyword_names = PyTuple_New(n);
        if (keyword_names == NULL) {
            return NULL;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *parameter = PyTuple_GET_ITEM(keyword_spec, i);
            if (!PyUnicode_CheckExact(parameter)) {
                Py_DECREF(keyword_names);
                PyErr_SetString(PyExc_TypeError, "make_front: keyword names must be str");
                return NULL;
            }
            Py_INCREF(parameter);
            PyUnicode_InternInPlace(&parameter);
            PyTuple_SET_ITEM(keyword_names, i, parameter);
        }
    }
    if (check_spec != NULL && PyTuple_GET_SIZE(check_spec) != 0 && !PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "make_front: check must be callable");
        Py_XDECREF(keyword_names);
        return NULL;
    }
    if (!PyCallable_Check(python) || !PyCallable_Check(explain)) {
        PyErr_SetString(PyExc_TypeError, "make_front: python and explain must be callable");
        Py_XDECREF(keyword_names);
        return NULL;
    }
    if (arity == 0 || arity < VARIADIC_AFTER_FIRST || arity > MAX_TUPLE_KEY) {
        PyErr_Format(PyExc_ValueError, "make_front: arity must be 1..%d, -1, -2, -3 or -4, got %zd",
                     MAX_TUPLE_KEY, arity);
        Py_XDECREF(keyword_names);
        return NULL;
    }
    Py_ssize_t optional_count = optional == NULL ? 0 : PyTuple_GET_SIZE(optional);
    if (optional_count != 0 && (arity < 1 || optional_count >= arity)) {
        PyErr_SetString(PyExc_ValueError,
                        "make_front: optional arrays need an arity >= 1 and a first array that is not optional");
        Py_XDECREF(keyword_names);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < optional_count; i++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(optional, i))) {
            PyErr_SetString(PyExc_TypeError, "make_front: optional must be a tuple of str");
            Py_XDECREF(keyword_names);
        return NULL;
        }
    }
    if (arity == CURRENT && current_var == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "make_front: CURRENT fronts need connect_current_backend() first");
        Py_XDECREF(keyword_names);
        return NULL;
    }
    ArgumentCheck checks[MAX_CHECKS];
    Py_ssize_t check_count = parse_checks(check_spec, checks);
    if (check_count < 0) {
        Py_XDECREF(keyword_names);
        return NULL;
    }
    FrontState *state = PyObject_GC_New(FrontState, &FrontStateType);
    if (state == NULL) {
        for (Py_ssize_t i = 0; i < check_count; i++) {
            Py_DECREF(checks[i].name);
        }
        Py_XDECREF(keyword_names);
        return NULL;
    }
    state->check_position = PY_SSIZE_T_MAX;
    for (Py_ssize_t i = 0; i < check_count; i++) {
        state->checks[i] = checks[i];
        if (checks[i].position >= 0 && checks[i].position < state->check_position) {
            state->check_position = checks[i].position;
        }
    }
    state->check_count = check_count;
    state->max_positional = max_positional < 0 ? PY_SSIZE_T_MAX : max_positional;
    state->hot_max_nargs = state->max_positional < state->check_position ? state->max_positional
                                                                          : state->check_position;
    state->keyword_names = keyword_names;
    state->keyword_base = keyword_base;
    state->keyword_positional = keyword_positional;
    state->optional_count = optional_count;
    for (Py_ssize_t i = 0; i < optional_count; i++) {
        PyObject *parameter = PyTuple_GET_ITEM(optional, i);
        Py_INCREF(parameter);
        PyUnicode_InternInPlace(&parameter);
        state->optional_names[i] = parameter;
    }
    Py_INCREF(check);
    state->check = check;
    Py_INCREF(python);
    Py_INCREF(explain);
    Py_INCREF(cache);
    Py_INCREF(name);
    Py_INCREF(doc);
    state->python = python;
    state->explain = explain;
    state->cache = cache;
    state->arity = arity;
    state->name = name;
    state->doc = doc;
    state->hot_arity = arity >= 1 ? arity : PY_SSIZE_T_MAX;
    for (Py_ssize_t i = 0; i < MAX_TUPLE_KEY; i++) {
        state->hot_types[i] = NULL;
    }
    state->hit_count = 0;
    state->hit_target = NULL;
    state->hit_native = NULL;
    state->hit_native_dtypes = NULL;
    state->hit_native_keywords = NULL;
    state->hit_native_min_nargs = 0;
    state->hit_native_nargs = 0;
    state->hit_native_same_shape = 0;
    state->hit_native_leading = 0;
    state->method_def.ml_name = PyBytes_AS_STRING(name);
    state->method_def.ml_meth = (PyCFunction)(void (*)(void))front_call;
    state->method_def.ml_flags = METH_FASTCALL | METH_KEYWORDS;
    state->method_def.ml_doc = PyBytes_AS_STRING(doc);
    PyObject_GC_Track(state);
    PyObject *front = PyCFunction_NewEx(&state->method_def, (PyObject *)state, module_name);
    Py_DECREF(state);
    return front;
}

/* state: a tuple (context_var, process_backend, trace_stack), hedera._dispatch.CURRENT_BACKEND_STATE. */
static PyObject *
connect_current_backend(PyObject *module, PyObject *args)
{
    PyObject *state, *var, *process, *stack;
    if (!PyArg_ParseTuple(args, "O!:connect_current_backend", &PyTuple_Type, &state)) {
        return NULL;
    }
    if (!PyArg_ParseTuple(state, "O!O!O!:connect_current_backend", &PyContextVar_Type, &var,
                          &PyList_Type, &process, &PyList_Type, &stack)) {
        return NULL;
    }
    Py_INCREF(var);
    Py_INCREF(process);
    Py_INCREF(stack);
    Py_XSETREF(current_var, var);
    Py_XSETREF(process_backend, process);
    Py_XSETREF(trace_stack, stack);
    Py_RETURN_NONE;
}

/* ---- JitCall: the per-call path of hd.jit, in C -------------------------------------------------
 *
 * The base class of hedera.jit.Jitted. A call whose positional arguments are all of one type and
 * that has no keywords goes straight to the compiled function remembered for that type
 * (_remember, called by Jitted on the first call of such a signature): about 50 ns over calling
 * the compiled function itself, against 0.5-0.7 us for a Python __call__ (its frame, *args and
 * **kwargs, the signature's dict lookup). Every other call goes to the instance's Python method
 * _call, which decides (and may remember). Around the call the remembered context variable
 * (hedera.jit.in_jit; None for jax, which sets it inside its trace) is set to True, and an
 * Exception goes to the remembered diagnose(exception, args, kwargs), which may raise hedera's
 * error for it (chained to the framework's), as Jitted._call does. */

typedef struct {
    PyObject_HEAD
    PyObject *hit_type;     /* the type of every positional argument of a fast call (NULL: none) */
    PyObject *hit_target;   /* the compiled function for them */
    PyObject *hit_flag;     /* a ContextVar set to True around the call, or NULL */
    PyObject *hit_diagnose; /* diagnose(exception, args, kwargs), or NULL */
} JitCall;

static PyObject *slow_call_name; /* the interned str "_call" */

/* An Exception is set: diagnose(exception, args, {}) may replace it with hedera's error, whose
 * context is then the framework's exception (as for a raise in an except clause); if diagnose
 * returns, the framework's exception is set again. */
static void
jit_call_diagnose(PyObject *diagnose, PyObject *args)
{
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (traceback != NULL) {
        PyException_SetTraceback(value, traceback);
    }
    PyObject *kwargs = PyDict_New();
    PyObject *said = kwargs == NULL ? NULL
                                    : PyObject_CallFunctionObjArgs(diagnose, value, args, kwargs, NULL);
    Py_XDECREF(kwargs);
    if (said != NULL) {
        Py_DECREF(said);
        PyErr_Restore(type, value, traceback);
        return;
    }
    PyObject *new_type, *new_value, *new_traceback;
    PyErr_Fetch(&new_type, &new_value, &new_traceback);
    PyErr_NormalizeException(&new_type, &new_value, &new_traceback);
    if (new_value != NULL && new_value != value && PyExceptionInstance_Check(new_value)) {
        PyObject *context = PyException_GetContext(new_value);
        if (context == NULL) {
            Py_INCREF(value);
            PyException_SetContext(new_value, value); /* (steals the reference) */
        }
        Py_XDECREF(context);
    }
    PyErr_Restore(new_type, new_value, new_traceback);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(traceback);
}

static PyObject *
jit_call_remembered(PyObject *target, PyObject *flag, PyObject *diagnose, PyObject *args)
{
    PyObject *token = NULL;
    if (flag != NULL) {
        token = PyContextVar_Set(flag, Py_True);
        if (token == NULL) {
            return NULL;
        }
    }
    PyObject *result = PyObject_Call(target, args, NULL);
    if (result == NULL && diagnose != NULL && PyErr_ExceptionMatches(PyExc_Exception)) {
        jit_call_diagnose(diagnose, args); /* (with the flag still set, as in Jitted._call) */
    }
    if (token != NULL) {
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        int reset = PyContextVar_Reset(flag, token);
        Py_DECREF(token);
        if (reset < 0) {
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(traceback);
            Py_CLEAR(result);
        }
        else {
            PyErr_Restore(type, value, traceback);
        }
    }
    return result;
}

static PyObject *
jit_call(JitCall *self, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    PyObject *type = self->hit_type;
    int fast = type != NULL && nargs > 0 && (kwargs == NULL || PyDict_GET_SIZE(kwargs) == 0);
    for (Py_ssize_t i = 0; fast && i < nargs; i++) {
        fast = (PyObject *)Py_TYPE(PyTuple_GET_ITEM(args, i)) == type;
    }
    if (!fast) {
        PyObject *method = PyObject_GetAttr((PyObject *)self, slow_call_name);
        if (method == NULL) {
            return NULL;
        }
        PyObject *result = PyObject_Call(method, args, kwargs);
        Py_DECREF(method);
        return result;
    }
    /* (held: the call may remember another signature, which drops these references) */
    PyObject *target = self->hit_target, *flag = self->hit_flag, *diagnose = self->hit_diagnose;
    Py_INCREF(target);
    Py_XINCREF(flag);
    Py_XINCREF(diagnose);
    PyObject *result = jit_call_remembered(target, flag, diagnose, args);
    Py_DECREF(target);
    Py_XDECREF(flag);
    Py_XDECREF(diagnose);
    return result;
}

static PyObject *
jit_call_remember(JitCall *self, PyObject *args)
{
    PyObject *type, *target, *flag, *diagnose;
    if (!PyArg_ParseTuple(args, "OOOO:_remember", &type, &target, &flag, &diagnose)) {
        return NULL;
    }
    if (type != Py_None && (!PyType_Check(type) || !PyCallable_Check(target))) {
        PyErr_SetString(PyExc_TypeError, "_remember: type must be a type (or None), target callable");
        return NULL;
    }
    if (flag != Py_None && !PyContextVar_CheckExact(flag)) {
        PyErr_SetString(PyExc_TypeError, "_remember: flag must be a ContextVar or None");
        return NULL;
    }
    PyObject *old[4] = {self->hit_type, self->hit_target, self->hit_flag, self->hit_diagnose};
    if (type == Py_None) {
        self->hit_type = self->hit_target = self->hit_flag = self->hit_diagnose = NULL;
    }
    else {
        PyObject *given[4] = {type, target, flag, diagnose};
        for (int i = 0; i < 4; i++) {
            if (given[i] == Py_None) {
                given[i] = NULL;
            }
            Py_XINCREF(given[i]);
        }
        self->hit_type = given[0];
        self->hit_target = given[1];
        self->hit_flag = given[2];
        self->hit_diagnose = given[3];
    }
    for (int i = 0; i < 4; i++) { /* (dropped last: that may run arbitrary code) */
        Py_XDECREF(old[i]);
    }
    Py_RETURN_NONE;
}

static int
jit_call_traverse(JitCall *self, visitproc visit, void *arg)
{
    Py_VISIT(self->hit_type);
    Py_VISIT(self->hit_target);
    Py_VISIT(self->hit_flag);
    Py_VISIT(self->hit_diagnose);
    return 0;
}

static int
jit_call_clear(JitCall *self)
{
    Py_CLEAR(self->hit_type);
    Py_CLEAR(self->hit_target);
    Py_CLEAR(self->hit_flag);
    Py_CLEAR(self->hit_diagnose);
    return 0;
}

static void
jit_call_dealloc(JitCall *self)
{
    PyObject_GC_UnTrack(self);
    jit_call_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef jit_call_methods[] = {
    {"_remember", (PyCFunction)jit_call_remember, METH_VARARGS,
     "_remember(type, target, flag, diagnose)\n--\n\n"
     "Send calls whose positional arguments are all of ``type``, without keywords, to\n"
     "``target``, with the ContextVar ``flag`` (or None) set to True around the call and\n"
     "``diagnose(exception, args, kwargs)`` (or None) on an Exception; ``type`` None: none."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject JitCallType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hedera._fastfront.JitCall",
    .tp_doc = "The C call path of hd.jit's functions (the base class of hedera.jit.Jitted).",
    .tp_basicsize = sizeof(JitCall),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_call = (ternaryfunc)jit_call,
    .tp_traverse = (traverseproc)jit_call_traverse,
    .tp_clear = (inquiry)jit_call_clear,
    .tp_dealloc = (destructor)jit_call_dealloc,
    .tp_methods = jit_call_methods,
};

static PyMethodDef module_methods[] = {
    {"make_front", make_front, METH_VARARGS,
     "make_front(python, explain, cache, arity, name, doc, module, checks=(), check=None, optional=())\n--\n\n"
     "A builtin function that calls cache[type of its array arguments] with its arguments,\n"
     "python(*args, **kwargs) on a miss, and explain(exception, args, kwargs) when the call\n"
     "raises an Exception. name and doc are bytes (doc may start with a text signature),\n"
     "module the name for __module__. checks: the up-front argument checks, a tuple of\n"
     "(name, position, fast, none_ok, minimum); check(name, value) decides where a fast test fails.\n"
     "optional: the names of the last of the arity arrays where they default to None: a call\n"
     "omitting them, or passing them by keyword, is completed with None to the positional call."},
    {"connect_current_backend", connect_current_backend, METH_VARARGS,
     "connect_current_backend(state)\n--\n\n"
     "Where fronts of arity CURRENT read the current backend: state is (context_var,\n"
     "process_backend, trace_stack); context_var.get(), else process_backend[0]; the Python\n"
     "front decides while the list trace_stack is not empty."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fastfront_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "hedera._fastfront",
    .m_doc = "C hot path of hedera's front functions (see hedera/_fastpath.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC
PyInit__fastfront(void)
{
    if (PyType_Ready(&FrontStateType) < 0 || PyType_Ready(&JitCallType) < 0) {
        return NULL;
    }
    slow_call_name = PyUnicode_InternFromString("_call");
    if (slow_call_name == NULL) {
        return NULL;
    }
    backend_keyword = PyUnicode_InternFromString("backend");
    native_attribute = PyUnicode_InternFromString("__hedera_native__");
    dtype_attribute = PyUnicode_InternFromString("dtype");
    shape_attribute = PyUnicode_InternFromString("shape");
    if (backend_keyword == NULL || native_attribute == NULL || dtype_attribute == NULL
        || shape_attribute == NULL) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&fastfront_module);
    if (module == NULL) {
        return NULL;
    }
    if (PyModule_AddIntConstant(module, "ABI", FASTFRONT_ABI) < 0
        || PyModule_AddIntConstant(module, "SEQUENCE", SEQUENCE) < 0
        || PyModule_AddIntConstant(module, "VARIADIC", VARIADIC) < 0
        || PyModule_AddIntConstant(module, "CURRENT", CURRENT) < 0
        || PyModule_AddIntConstant(module, "VARIADIC_AFTER_FIRST", VARIADIC_AFTER_FIRST) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&JitCallType);
    if (PyModule_AddObject(module, "JitCall", (PyObject *)&JitCallType) < 0) {
        Py_DECREF(&JitCallType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
