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
package io.jfabric;

/**
 * libfabric's error numbers (rdma/fi_errno.h, libfabric 1.17) and {@code fi_strerror}.
 * <p>
 * Values below {@link #FI_ERRNO_OFFSET} are the Linux errno values libfabric aliases; the rest are
 * libfabric's own. Control-path calls report them in a {@link FabricException}; data-path calls return
 * them negated, as in C ({@code -FI_EAGAIN}).
 * <p>
 * The texts are libfabric's: system errors as glibc's {@code strerror} prints them, libfabric's own as
 * {@code fi_strerror} prints them, and "Unspecified error" for anything at or above {@code FI_ERRNO_MAX}.
 * Thread safe; allocation free.
 */
public final class Errno
{
    /** Success. */
    public static final int FI_SUCCESS = 0;
    /** Operation not permitted. */
    public static final int FI_EPERM = 1;
    /** No such file or directory. */
    public static final int FI_ENOENT = 2;
    /** Interrupted system call. */
    public static final int FI_EINTR = 4;
    /** I/O error. */
    public static final int FI_EIO = 5;
    /** Argument list too long. */
    public static final int FI_E2BIG = 7;
    /** Bad file number. */
    public static final int FI_EBADF = 9;
    /** Try again. */
    public static final int FI_EAGAIN = 11;
    /** Out of memory. */
    public static final int FI_ENOMEM = 12;
    /** Permission denied. */
    public static final int FI_EACCES = 13;
    /** Bad address. */
    public static final int FI_EFAULT = 14;
    /** Device or resource busy. */
    public static final int FI_EBUSY = 16;
    /** No such device. */
    public static final int FI_ENODEV = 19;
    /** Invalid argument. */
    public static final int FI_EINVAL = 22;
    /** Too many open files. */
    public static final int FI_EMFILE = 24;
    /** No space left on device. */
    public static final int FI_ENOSPC = 28;
    /** Function not implemented. */
    public static final int FI_ENOSYS = 38;
    /** Operation would block. */
    public static final int FI_EWOULDBLOCK = 11;
    /** No message of desired type. */
    public static final int FI_ENOMSG = 42;
    /** No data available. */
    public static final int FI_ENODATA = 61;
    /** Value too large for defined data type. */
    public static final int FI_EOVERFLOW = 75;
    /** Message too long. */
    public static final int FI_EMSGSIZE = 90;
    /** Protocol not available. */
    public static final int FI_ENOPROTOOPT = 92;
    /** Operation not supported on transport endpoint. */
    public static final int FI_EOPNOTSUPP = 95;
    /** Address already in use. */
    public static final int FI_EADDRINUSE = 98;
    /** Cannot assign requested address. */
    public static final int FI_EADDRNOTAVAIL = 99;
    /** Network is down. */
    public static final int FI_ENETDOWN = 100;
    /** Network is unreachable. */
    public static final int FI_ENETUNREACH = 101;
    /** Software caused connection abort. */
    public static final int FI_ECONNABORTED = 103;
    /** Connection reset by peer. */
    public static final int FI_ECONNRESET = 104;
    /** No buffer space available. */
    public static final int FI_ENOBUFS = 105;
    /** Transport endpoint is already connected. */
    public static final int FI_EISCONN = 106;
    /** Transport endpoint is not connected. */
    public static final int FI_ENOTCONN = 107;
    /** Cannot send after transport endpoint shutdown. */
    public static final int FI_ESHUTDOWN = 108;
    /** Connection timed out. */
    public static final int FI_ETIMEDOUT = 110;
    /** Connection refused. */
    public static final int FI_ECONNREFUSED = 111;
    /** Host is down. */
    public static final int FI_EHOSTDOWN = 112;
    /** No route to host. */
    public static final int FI_EHOSTUNREACH = 113;
    /** Operation already in progress. */
    public static final int FI_EALREADY = 114;
    /** Operation now in progress. */
    public static final int FI_EINPROGRESS = 115;
    /** Remote I/O error. */
    public static final int FI_EREMOTEIO = 121;
    /** Operation Canceled. */
    public static final int FI_ECANCELED = 125;
    /** Key was rejected by service. */
    public static final int FI_EKEYREJECTED = 129;
    /** Unspecified error. */
    public static final int FI_EOTHER = 256;
    /** Provided buffer is too small. */
    public static final int FI_ETOOSMALL = 257;
    /** Operation not permitted in current state. */
    public static final int FI_EOPBADSTATE = 258;
    /** Error available. */
    public static final int FI_EAVAIL = 259;
    /** Flags not supported. */
    public static final int FI_EBADFLAGS = 260;
    /** Missing or unavailable event queue. */
    public static final int FI_ENOEQ = 261;
    /** Invalid resource domain. */
    public static final int FI_EDOMAIN = 262;
    /** Missing or unavailable completion queue. */
    public static final int FI_ENOCQ = 263;
    /** CRC error. */
    public static final int FI_ECRC = 264;
    /** Truncation error. */
    public static final int FI_ETRUNC = 265;
    /** Required key not available. */
    public static final int FI_ENOKEY = 266;
    /** Missing or unavailable address vector. */
    public static final int FI_ENOAV = 267;
    /** Queue has been overrun. */
    public static final int FI_EOVERRUN = 268;
    /** Receiver not ready, no receive buffers available. */
    public static final int FI_ENORX = 269;
    /** First libfabric-specific error number. */
    public static final int FI_ERRNO_OFFSET = 256;
    /** One past the last libfabric-specific error number. */
    public static final int FI_ERRNO_MAX = 270;

    private static final String[] SYSTEM_TEXT =
    {
        "Success",
        "Operation not permitted",
        "No such file or directory",
        "No such process",
        "Interrupted system call",
        "Input/output error",
        "No such device or address",
        "Argument list too long",
        "Exec format error",
        "Bad file descriptor",
        "No child processes",
        "Resource temporarily unavailable",
        "Cannot allocate memory",
        "Permission denied",
        "Bad address",
        "Block device required",
        "Device or resource busy",
        "File exists",
        "Invalid cross-device link",
        "No such device",
        "Not a directory",
        "Is a directory",
        "Invalid argument",
        "Too many open files in system",
        "Too many open files",
        "Inappropriate ioctl for device",
        "Text file busy",
        "File too large",
        "No space left on device",
        "Illegal seek",
        "Read-only file system",
        "Too many links",
        "Broken pipe",
        "Numerical argument out of domain",
        "Numerical result out of range",
        "Resource deadlock avoided",
        "File name too long",
        "No locks available",
        "Function not implemented",
        "Directory not empty",
        "Too many levels of symbolic links",
        "Unknown error 41",
        "No message of desired type",
        "Identifier removed",
        "Channel number out of range",
        "Level 2 not synchronized",
        "Level 3 halted",
        "Level 3 reset",
        "Link number out of range",
        "Protocol driver not attached",
        "No CSI structure available",
        "Level 2 halted",
        "Invalid exchange",
        "Invalid request descriptor",
        "Exchange full",
        "No anode",
        "Invalid request code",
        "Invalid slot",
        "Unknown error 58",
        "Bad font file format",
        "Device not a stream",
        "No data available",
        "Timer expired",
        "Out of streams resources",
        "Machine is not on the network",
        "Package not installed",
        "Object is remote",
        "Link has been severed",
        "Advertise error",
        "Srmount error",
        "Communication error on send",
        "Protocol error",
        "Multihop attempted",
        "RFS specific error",
        "Bad message",
        "Value too large for defined data type",
        "Name not unique on network",
        "File descriptor in bad state",
        "Remote address changed",
        "Can not access a needed shared library",
        "Accessing a corrupted shared library",
        ".lib section in a.out corrupted",
        "Attempting to link in too many shared libraries",
        "Cannot exec a shared library directly",
        "Invalid or incomplete multibyte or wide character",
        "Interrupted system call should be restarted",
        "Streams pipe error",
        "Too many users",
        "Socket operation on non-socket",
        "Destination address required",
        "Message too long",
        "Protocol wrong type for socket",
        "Protocol not available",
        "Protocol not supported",
        "Socket type not supported",
        "Operation not supported",
        "Protocol family not supported",
        "Address family not supported by protocol",
        "Address already in use",
        "Cannot assign requested address",
        "Network is down",
        "Network is unreachable",
        "Network dropped connection on reset",
        "Software caused connection abort",
        "Connection reset by peer",
        "No buffer space available",
        "Transport endpoint is already connected",
        "Transport endpoint is not connected",
        "Cannot send after transport endpoint shutdown",
        "Too many references: cannot splice",
        "Connection timed out",
        "Connection refused",
        "Host is down",
        "No route to host",
        "Operation already in progress",
        "Operation now in progress",
        "Stale file handle",
        "Structure needs cleaning",
        "Not a XENIX named type file",
        "No XENIX semaphores available",
        "Is a named type file",
        "Remote I/O error",
        "Disk quota exceeded",
        "No medium found",
        "Wrong medium type",
        "Operation canceled",
        "Required key not available",
        "Key has expired",
        "Key has been revoked",
        "Key was rejected by service",
        "Owner died",
        "State not recoverable",
        "Operation not possible due to RF-kill",
        "Memory page has hardware error",
        "Unknown error 134",
        "Unknown error 135",
        "Unknown error 136",
        "Unknown error 137",
        "Unknown error 138",
        "Unknown error 139",
        "Unknown error 140",
        "Unknown error 141",
        "Unknown error 142",
        "Unknown error 143",
        "Unknown error 144",
        "Unknown error 145",
        "Unknown error 146",
        "Unknown error 147",
        "Unknown error 148",
        "Unknown error 149",
        "Unknown error 150",
        "Unknown error 151",
        "Unknown error 152",
        "Unknown error 153",
        "Unknown error 154",
        "Unknown error 155",
        "Unknown error 156",
        "Unknown error 157",
        "Unknown error 158",
        "Unknown error 159",
        "Unknown error 160",
        "Unknown error 161",
        "Unknown error 162",
        "Unknown error 163",
        "Unknown error 164",
        "Unknown error 165",
        "Unknown error 166",
        "Unknown error 167",
        "Unknown error 168",
        "Unknown error 169",
        "Unknown error 170",
        "Unknown error 171",
        "Unknown error 172",
        "Unknown error 173",
        "Unknown error 174",
        "Unknown error 175",
        "Unknown error 176",
        "Unknown error 177",
        "Unknown error 178",
        "Unknown error 179",
        "Unknown error 180",
        "Unknown error 181",
        "Unknown error 182",
        "Unknown error 183",
        "Unknown error 184",
        "Unknown error 185",
        "Unknown error 186",
        "Unknown error 187",
        "Unknown error 188",
        "Unknown error 189",
        "Unknown error 190",
        "Unknown error 191",
        "Unknown error 192",
        "Unknown error 193",
        "Unknown error 194",
        "Unknown error 195",
        "Unknown error 196",
        "Unknown error 197",
        "Unknown error 198",
        "Unknown error 199",
        "Unknown error 200",
        "Unknown error 201",
        "Unknown error 202",
        "Unknown error 203",
        "Unknown error 204",
        "Unknown error 205",
        "Unknown error 206",
        "Unknown error 207",
        "Unknown error 208",
        "Unknown error 209",
        "Unknown error 210",
        "Unknown error 211",
        "Unknown error 212",
        "Unknown error 213",
        "Unknown error 214",
        "Unknown error 215",
        "Unknown error 216",
        "Unknown error 217",
        "Unknown error 218",
        "Unknown error 219",
        "Unknown error 220",
        "Unknown error 221",
        "Unknown error 222",
        "Unknown error 223",
        "Unknown error 224",
        "Unknown error 225",
        "Unknown error 226",
        "Unknown error 227",
        "Unknown error 228",
        "Unknown error 229",
        "Unknown error 230",
        "Unknown error 231",
        "Unknown error 232",
        "Unknown error 233",
        "Unknown error 234",
        "Unknown error 235",
        "Unknown error 236",
        "Unknown error 237",
        "Unknown error 238",
        "Unknown error 239",
        "Unknown error 240",
        "Unknown error 241",
        "Unknown error 242",
        "Unknown error 243",
        "Unknown error 244",
        "Unknown error 245",
        "Unknown error 246",
        "Unknown error 247",
        "Unknown error 248",
        "Unknown error 249",
        "Unknown error 250",
        "Unknown error 251",
        "Unknown error 252",
        "Unknown error 253",
        "Unknown error 254",
        "Unknown error 255",
    };

    private static final String[] FABRIC_TEXT =
    {
        "Unspecified error",
        "Provided buffer is too small",
        "Operation not permitted in current state",
        "Error available",
        "Flags not supported",
        "Missing or unavailable event queue",
        "Invalid resource domain",
        "Missing or unavailable completion queue",
        "CRC error",
        "Truncation error",
        "Required key not available",
        "Missing or unavailable address vector",
        "Queue has been overrun",
        "Receiver not ready, no receive buffers available",
    };

    private static final String[] NAMES = new String[FI_ERRNO_MAX];

    static
    {
        NAMES[FI_SUCCESS] = "FI_SUCCESS";
        NAMES[FI_EPERM] = "FI_EPERM";
        NAMES[FI_ENOENT] = "FI_ENOENT";
        NAMES[FI_EINTR] = "FI_EINTR";
        NAMES[FI_EIO] = "FI_EIO";
        NAMES[FI_E2BIG] = "FI_E2BIG";
        NAMES[FI_EBADF] = "FI_EBADF";
        NAMES[FI_EAGAIN] = "FI_EAGAIN";
        NAMES[FI_ENOMEM] = "FI_ENOMEM";
        NAMES[FI_EACCES] = "FI_EACCES";
        NAMES[FI_EFAULT] = "FI_EFAULT";
        NAMES[FI_EBUSY] = "FI_EBUSY";
        NAMES[FI_ENODEV] = "FI_ENODEV";
        NAMES[FI_EINVAL] = "FI_EINVAL";
        NAMES[FI_EMFILE] = "FI_EMFILE";
        NAMES[FI_ENOSPC] = "FI_ENOSPC";
        NAMES[FI_ENOSYS] = "FI_ENOSYS";
        NAMES[FI_ENOMSG] = "FI_ENOMSG";
        NAMES[FI_ENODATA] = "FI_ENODATA";
        NAMES[FI_EOVERFLOW] = "FI_EOVERFLOW";
        NAMES[FI_EMSGSIZE] = "FI_EMSGSIZE";
        NAMES[FI_ENOPROTOOPT] = "FI_ENOPROTOOPT";
        NAMES[FI_EOPNOTSUPP] = "FI_EOPNOTSUPP";
        NAMES[FI_EADDRINUSE] = "FI_EADDRINUSE";
        NAMES[FI_EADDRNOTAVAIL] = "FI_EADDRNOTAVAIL";
        NAMES[FI_ENETDOWN] = "FI_ENETDOWN";
        NAMES[FI_ENETUNREACH] = "FI_ENETUNREACH";
        NAMES[FI_ECONNABORTED] = "FI_ECONNABORTED";
        NAMES[FI_ECONNRESET] = "FI_ECONNRESET";
        NAMES[FI_ENOBUFS] = "FI_ENOBUFS";
        NAMES[FI_EISCONN] = "FI_EISCONN";
        NAMES[FI_ENOTCONN] = "FI_ENOTCONN";
        NAMES[FI_ESHUTDOWN] = "FI_ESHUTDOWN";
        NAMES[FI_ETIMEDOUT] = "FI_ETIMEDOUT";
        NAMES[FI_ECONNREFUSED] = "FI_ECONNREFUSED";
        NAMES[FI_EHOSTDOWN] = "FI_EHOSTDOWN";
        NAMES[FI_EHOSTUNREACH] = "FI_EHOSTUNREACH";
        NAMES[FI_EALREADY] = "FI_EALREADY";
        NAMES[FI_EINPROGRESS] = "FI_EINPROGRESS";
        NAMES[FI_EREMOTEIO] = "FI_EREMOTEIO";
        NAMES[FI_ECANCELED] = "FI_ECANCELED";
        NAMES[FI_EKEYREJECTED] = "FI_EKEYREJECTED";
        NAMES[FI_EOTHER] = "FI_EOTHER";
        NAMES[FI_ETOOSMALL] = "FI_ETOOSMALL";
        NAMES[FI_EOPBADSTATE] = "FI_EOPBADSTATE";
        NAMES[FI_EAVAIL] = "FI_EAVAIL";
        NAMES[FI_EBADFLAGS] = "FI_EBADFLAGS";
        NAMES[FI_ENOEQ] = "FI_ENOEQ";
        NAMES[FI_EDOMAIN] = "FI_EDOMAIN";
        NAMES[FI_ENOCQ] = "FI_ENOCQ";
        NAMES[FI_ECRC] = "FI_ECRC";
        NAMES[FI_ETRUNC] = "FI_ETRUNC";
        NAMES[FI_ENOKEY] = "FI_ENOKEY";
        NAMES[FI_ENOAV] = "FI_ENOAV";
        NAMES[FI_EOVERRUN] = "FI_EOVERRUN";
        NAMES[FI_ENORX] = "FI_ENORX";
    }

    private Errno()
    {
    }

    /**
     * The text libfabric's {@code fi_strerror} gives for an error number; the sign is ignored, so
     * {@code strerror(-FI_EAGAIN)} works on a data-path return code.
     *
     * @param errno error number, positive or negated.
     * @return the text, never null.
     */
    public static String strerror(final int errno)
    {
        final int e = errno == Integer.MIN_VALUE ? Integer.MAX_VALUE : Math.abs(errno);
        if (e < FI_ERRNO_OFFSET)
        {
            return SYSTEM_TEXT[e];
        }
        if (e < FI_ERRNO_MAX)
        {
            return FABRIC_TEXT[e - FI_ERRNO_OFFSET];
        }
        return FABRIC_TEXT[0];
    }

    /**
     * The symbolic name of an error number libfabric defines, such as {@code "FI_EAGAIN"}.
     *
     * @param errno error number, positive or negated.
     * @return the name, or null when libfabric defines no name for it.
     */
    public static String name(final int errno)
    {
        final int e = errno == Integer.MIN_VALUE ? Integer.MAX_VALUE : Math.abs(errno);
        return e < FI_ERRNO_MAX ? NAMES[e] : null;
    }

    /**
     * The error number for a symbolic name, with or without the {@code FI_} prefix, any case.
     *
     * @param name such as {@code "FI_EAGAIN"}, {@code "EAGAIN"} or {@code "eagain"}.
     * @return the number, or -1 when libfabric defines no such name.
     */
    public static int valueOf(final String name)
    {
        if (name == null)
        {
            return -1;
        }
        String n = name.trim().toUpperCase(java.util.Locale.ROOT);
        if (!n.startsWith("FI_"))
        {
            n = "FI_" + n;
        }
        if ("FI_EWOULDBLOCK".equals(n))
        {
            return FI_EWOULDBLOCK;
        }
        for (int i = 0; i < NAMES.length; i++)
        {
            if (n.equals(NAMES[i]))
            {
                return i;
            }
        }
        return -1;
    }
}
