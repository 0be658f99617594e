// Linked by the "missing dependency" fake but placed where the loader never looks, so dlopen of
// that plugin fails the way a plugin with an unmet dependency does.
extern "C" __attribute__((visibility("default"))) int fakeMissingDependencyValue() {
    return 42;
}
