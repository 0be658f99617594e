// A tiny shared library both "collision" fakes link: its object's address is the handle each of
// them returns, so the two plugin handles are equal even though the plugins load RTLD_LOCAL.
extern "C" __attribute__((visibility("default"))) void* fakeSharedHandleObject() {
    static int object = 0;
    return &object;
}
