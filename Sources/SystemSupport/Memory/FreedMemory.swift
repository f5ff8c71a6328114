import CSystemSupport

/// The memory a process freed but its allocator still holds.
///
/// `malloc` keeps freed memory for later allocations: a phase that builds a large structure
/// and drops most of it (a script library's index decoded, its matcher built) leaves the
/// process that much larger for the rest of its life. ``returnToSystem()`` hands those pages
/// back, so that what comes after (a browser session) starts from what is really in use.
///
/// ```swift
/// let planned = try PlannedScripts(library: ScriptLibrary(directory: folder), address: address)
/// FreedMemory.returnToSystem()   // the library is gone; its pages go back
/// ```
public enum FreedMemory {
    /// Gives the free pages of the allocator's heaps back to the system (`malloc_trim(0)` on
    /// glibc; nothing elsewhere). Costs a walk over the heaps: call it between phases, not in a
    /// loop.
    ///
    /// - Returns: Whether any memory was released.
    @discardableResult
    public static func returnToSystem() -> Bool {
        pagescript_release_free_memory() == 1
    }
}
