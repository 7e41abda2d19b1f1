/*
 * Copyright 2026 the jfabric authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 * https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.jfabric.ofi.lib;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The native libfabric library ({@code libfabric.so.1}, Debian's {@code libfabric1}) and the functions it exports,
 * each bound to one <em>symbol version</em> with {@code dlvsym}, never to whatever version a plain {@code dlsym}
 * would pick: {@code fi_getinfo}, {@code fi_dupinfo} and {@code fi_freeinfo} exist as FABRIC_1.0 to FABRIC_1.3 in
 * libfabric 1.17, each version with the {@code struct fi_info} of its time, and the default moves with new releases.
 * Pinning the version the layouts of {@link InfoLayouts} were written for (the 1.17 headers) means a newer libfabric
 * either still serves that ABI through its compatibility symbol or fails to load here with a clear message, never
 * silently disagrees with the Java layouts. {@link #PINNED} lists the versions; LibfabricSymbolsTest checks them
 * against {@code objdump -T} of the installed library.
 * <p>
 * Every other call (fi_domain, fi_send, fi_cq_read, ...) is a static inline in the headers that calls through the
 * object's ops table; those go through {@link Ops} and {@link Downcalls}.
 * <p>
 * Loaded once, on first use; {@link #get()} throws {@link LibfabricUnavailableException} with the reason when the
 * library or a symbol is missing. Thread safe.
 */
public final class Libfabric
{
    /** The library's soname. */
    public static final String SONAME = "libfabric.so.1";

    /** The functions bound and the symbol version of each: name, version. */
    public static final String[][] PINNED = {
        {"fi_getinfo", "FABRIC_1.3"},
        {"fi_dupinfo", "FABRIC_1.3"},
        {"fi_freeinfo", "FABRIC_1.3"},
        {"fi_fabric", "FABRIC_1.1"},
        {"fi_strerror", "FABRIC_1.0"},
        {"fi_tostr", "FABRIC_1.0"},
        {"fi_version", "FABRIC_1.0"},
    };

    private static final int RTLD_NOW = 2;

    private static volatile Object loaded;

    /** The JVM's signal handlers, put back after every call that may load providers. */
    public final SignalHandlers jvmHandlers;

    /** {@code int fi_getinfo(uint32_t version, const char *node, const char *service, uint64_t flags, const struct fi_info *hints, struct fi_info **info)}. */
    public final MethodHandle getinfo;
    /** {@code struct fi_info *fi_dupinfo(const struct fi_info *info)}. */
    public final MethodHandle dupinfo;
    /** {@code void fi_freeinfo(struct fi_info *info)}. */
    public final MethodHandle freeinfo;
    /** {@code int fi_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric, void *context)}. */
    public final MethodHandle fabric;
    /** {@code const char *fi_strerror(int errnum)}. */
    public final MethodHandle strerror;
    /** {@code char *fi_tostr(const void *data, enum fi_type datatype)}. */
    public final MethodHandle tostr;
    /** {@code uint32_t fi_version(void)}. */
    public final MethodHandle version;

    private Libfabric(final SymbolTable symbols, final SignalHandlers jvmHandlers)
    {
        this.jvmHandlers = jvmHandlers;
        final Linker linker = Linker.nativeLinker();
        getinfo = linker.downcallHandle(symbols.find("fi_getinfo"),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, CTypes.U64, ADDRESS, ADDRESS));
        dupinfo = linker.downcallHandle(symbols.find("fi_dupinfo"), FunctionDescriptor.of(ADDRESS, ADDRESS));
        freeinfo = linker.downcallHandle(symbols.find("fi_freeinfo"), FunctionDescriptor.ofVoid(ADDRESS));
        fabric = linker.downcallHandle(symbols.find("fi_fabric"),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, CTypes.PTR_ARG));
        strerror = linker.downcallHandle(symbols.find("fi_strerror"), FunctionDescriptor.of(ADDRESS, JAVA_INT));
        tostr = linker.downcallHandle(symbols.find("fi_tostr"), FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
        version = linker.downcallHandle(symbols.find("fi_version"), FunctionDescriptor.of(JAVA_INT));
    }

    /**
     * @return the loaded library.
     * @throws LibfabricUnavailableException when libfabric or one of its pinned symbols cannot be found.
     */
    public static Libfabric get()
    {
        Object state = loaded;
        if (state == null)
        {
            synchronized (Libfabric.class)
            {
                state = loaded;
                if (state == null)
                {
                    state = load();
                    loaded = state;
                }
            }
        }
        if (state instanceof LibfabricUnavailableException ex)
        {
            throw new LibfabricUnavailableException(ex.getMessage(), ex);
        }
        return (Libfabric)state;
    }

    /**
     * @return whether libfabric loads in this JVM.
     */
    public static boolean available()
    {
        return whyUnavailable() == null;
    }

    /**
     * @return null when libfabric loads, else why it does not.
     */
    public static String whyUnavailable()
    {
        try
        {
            get();
            return null;
        }
        catch (final LibfabricUnavailableException ex)
        {
            return ex.getMessage();
        }
    }

    private static Object load()
    {
        try
        {
            final SignalHandlers handlers = SignalHandlers.save();
            try
            {
                return new Libfabric(SymbolTable.open(SONAME), handlers);
            }
            finally
            {
                handlers.restore();
            }
        }
        catch (final LibfabricUnavailableException ex)
        {
            return ex;
        }
        catch (final RuntimeException | LinkageError ex)
        {
            return new LibfabricUnavailableException("cannot load " + SONAME + ": " + ex, ex);
        }
    }

    /** {@code dlopen} and {@code dlvsym} through libc, which the JVM's default lookup reaches. */
    static final class SymbolTable
    {
        private final MemorySegment handle;
        private final MethodHandle dlvsym;

        private SymbolTable(final MemorySegment handle, final MethodHandle dlvsym)
        {
            this.handle = handle;
            this.dlvsym = dlvsym;
        }

        static SymbolTable open(final String soname)
        {
            final Linker linker = Linker.nativeLinker();
            final SymbolLookup libc = linker.defaultLookup();
            final MethodHandle dlopen = linker.downcallHandle(libc.find("dlopen").orElseThrow(),
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
            final MethodHandle dlerror = linker.downcallHandle(libc.find("dlerror").orElseThrow(),
                FunctionDescriptor.of(ADDRESS));
            final MethodHandle dlvsym = linker.downcallHandle(libc.find("dlvsym").orElseThrow(),
                FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
            try (Arena arena = Arena.ofConfined())
            {
                final MemorySegment handle = (MemorySegment)dlopen.invokeExact(arena.allocateFrom(soname), RTLD_NOW);
                if (handle.equals(MemorySegment.NULL))
                {
                    final MemorySegment why = (MemorySegment)dlerror.invokeExact();
                    throw new LibfabricUnavailableException("cannot load " + soname + " (install libfabric1): " +
                        CStrings.read(why), null);
                }
                final SymbolTable table = new SymbolTable(handle, dlvsym);
                for (final String[] pinned : PINNED)
                {
                    table.find(pinned[0]);
                }
                return table;
            }
            catch (final LibfabricUnavailableException ex)
            {
                throw ex;
            }
            catch (final Throwable t)
            {
                throw new LibfabricUnavailableException("cannot load " + soname + ": " + t, t);
            }
        }

        MemorySegment find(final String name)
        {
            final String version = versionOf(name);
            try (Arena arena = Arena.ofConfined())
            {
                final MemorySegment symbol = (MemorySegment)dlvsym.invokeExact(
                    handle, arena.allocateFrom(name), arena.allocateFrom(version));
                if (symbol.equals(MemorySegment.NULL))
                {
                    throw new LibfabricUnavailableException(SONAME + " has no " + name + "@" + version +
                        ": this build of jfabric is written to that ABI (libfabric 1.17's headers)", null);
                }
                return symbol;
            }
            catch (final LibfabricUnavailableException ex)
            {
                throw ex;
            }
            catch (final Throwable t)
            {
                throw new LibfabricUnavailableException("dlvsym " + name + "@" + version + ": " + t, t);
            }
        }

        private static String versionOf(final String name)
        {
            for (final String[] pinned : PINNED)
            {
                if (pinned[0].equals(name))
                {
                    return pinned[1];
                }
            }
            throw new IllegalArgumentException(name + " is not pinned");
        }
    }
}
