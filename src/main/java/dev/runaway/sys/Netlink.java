// SPDX-License-Identifier: GPL-3.0-or-later
package dev.runaway.sys;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Pointer;

/** The socket calls a netlink listener needs (the kernel's process events connector: {@link ProcConnector}). */
interface Netlink extends Library {
    Netlink INSTANCE = Jna.libc(Netlink.class);

    int AF_NETLINK = 16;
    int SOCK_DGRAM = 2;
    int SOCK_CLOEXEC = 0x80000;
    int NETLINK_CONNECTOR = 11;
    int SOL_SOCKET = 1;
    int SO_RCVBUFFORCE = 33;
    int SO_RCVBUF = 8;
    int MSG_DONTWAIT = 0x40;

    int socket(int domain, int type, int protocol) throws LastErrorException;

    int bind(int fd, Pointer address, int length) throws LastErrorException;

    long send(int fd, Pointer buffer, long length, int flags) throws LastErrorException;

    long recv(int fd, Pointer buffer, long length, int flags) throws LastErrorException;

    int setsockopt(int fd, int level, int name, Pointer value, int length) throws LastErrorException;

    int close(int fd);
}
