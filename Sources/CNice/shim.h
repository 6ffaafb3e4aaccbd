// libnice + GLib, as TernICE sees them.
// Swift cannot import function-like macros or call C variadics; the `tern_`
// functions below are the small prefixed shims for those. They are `static
// inline` so that each system-library target carries its own shims and a
// program that uses one library never has to link the others.
#ifndef TERN_CNICE_SHIM_H
#define TERN_CNICE_SHIM_H

#include <agent.h>
#include <nice/debug.h>
#include <nice/interfaces.h>
#include <glib.h>
#include <glib-object.h>

static const gboolean tern_g_true = TRUE;
static const gboolean tern_g_false = FALSE;

/// `g_signal_connect` is a macro over `g_signal_connect_data`.
static inline gulong tern_g_signal_connect(gpointer instance, const gchar *signal,
                                          GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

/// `g_object_set` is variadic: one shim per property type we set.
static inline void tern_g_object_set_boolean(gpointer object, const gchar *name, gboolean value) {
    g_object_set(object, name, value, NULL);
}
static inline void tern_g_object_set_uint(gpointer object, const gchar *name, guint value) {
    g_object_set(object, name, value, NULL);
}
static inline void tern_g_object_set_string(gpointer object, const gchar *name, const gchar *value) {
    g_object_set(object, name, value, NULL);
}
static inline guint tern_g_object_get_uint(gpointer object, const gchar *name) {
    guint value = 0;
    g_object_get(object, name, &value, NULL);
    return value;
}
/// Whether libnice's `NiceAgent` class has a property called `name`, without creating an agent.
static inline gboolean tern_nice_agent_class_has_property(const gchar *name) {
    gpointer klass = g_type_class_ref(NICE_TYPE_AGENT);
    gboolean has = g_object_class_find_property(G_OBJECT_CLASS(klass), name) != NULL;
    g_type_class_unref(klass);
    return has;
}
static inline guint64 tern_g_object_get_uint64(gpointer object, const gchar *name) {
    guint64 value = 0;
    g_object_get(object, name, &value, NULL);
    return value;
}
static inline gboolean tern_g_object_get_boolean(gpointer object, const gchar *name) {
    gboolean value = FALSE;
    g_object_get(object, name, &value, NULL);
    return value;
}

/// `nice_agent_set_dtls_in_stun` of Tern's libnice patch (`dtls-in-stun`), looked up at run
/// time: Debian's libnice has no such function, and a direct reference would keep Tern from
/// loading with it. FALSE when the loaded library lacks it or refuses the records.
static inline gboolean tern_nice_agent_set_dtls_in_stun(NiceAgent *agent, guint stream, guint component,
                                                        const guint8 *data, gsize length) {
    typedef gboolean (*Setter)(NiceAgent *, guint, guint, const guint8 *, gsize);
    extern void *dlsym(void *handle, const char *symbol);
    Setter setter = (Setter)dlsym((void *)0 /* RTLD_DEFAULT */, "nice_agent_set_dtls_in_stun");
    return setter != NULL && setter(agent, stream, component, data, length);
}

#ifdef __linux__
/// Moves the calling thread into the network namespace open at `fd` (`setns(2)` with
/// CLONE_NEWNET). Swift's Glibc module does not export `setns` (it needs _GNU_SOURCE).
/// Returns 0, or -1 with errno set. Used to run a `GLibEventLoop` (and so every socket
/// libnice opens from it) inside a test network namespace.
static inline int tern_setns_network(int fd) {
    extern int setns(int fd, int nstype);
    return setns(fd, 0x40000000 /* CLONE_NEWNET */);
}
#endif

#endif
