// The loaders' bounded file reader and byte formatting (limits.hpp).
#include <gameplan/io/limits.hpp>
#include <gameplan/io/load_error.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <iterator>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gameplan::io {

namespace {

// Closes a file descriptor on every path out of read_bounded_file.
struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) (void)::close(fd);
    }
};

}  // namespace

std::string format_bytes(std::uint64_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    static const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = static_cast<double>(bytes) / 1024.0;
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < std::size(units)) {
        value /= 1024.0;
        ++unit;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, value < 10 ? "%.1f %s" : "%.0f %s", value, units[unit]);
    return buffer;
}

std::string read_bounded_file(const std::filesystem::path& file, std::uint64_t max_bytes, std::string_view what) {
    const std::string name = file.string();
    const std::string kind(what);
    Fd in;
    do {
        in.fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    } while (in.fd < 0 && errno == EINTR);
    if (in.fd < 0) {
        const int err = errno;
        if (err == ENOENT) throw LoadError(name, 0, 0, "", "cannot open file: no such file");
        if (err == EISDIR) throw LoadError(name, 0, 0, "", "is a directory, not a " + kind);
        throw LoadError(name, 0, 0, "", std::string("cannot open file for reading (") + std::strerror(err) + ")");
    }
    struct stat st {};
    if (::fstat(in.fd, &st) != 0) throw LoadError(name, 0, 0, "", std::string("cannot inspect file (") + std::strerror(errno) + ")");
    if (S_ISDIR(st.st_mode)) throw LoadError(name, 0, 0, "", "is a directory, not a " + kind);
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        throw LoadError(name, 0, 0, "", "is a device, not a " + kind + " (only regular files and pipes are read)");
    if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
        throw LoadError(name, 0, 0, "", "is not a regular file or a pipe (cannot read a " + kind + " from it)");
    const auto too_large = [&] {
        return LoadError(name, 0, 0, "", "larger than the limit of " + format_bytes(max_bytes) + " (" +
                                             std::to_string(max_bytes) + " bytes) for a " + kind);
    };
    if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > max_bytes) throw too_large();

    std::string text;
    if (S_ISREG(st.st_mode)) text.reserve(static_cast<std::size_t>(st.st_size));
    constexpr std::size_t kChunk = 1 << 16;
    for (;;) {
        // Read at most one byte past the limit: enough to know the input is too large.
        const std::uint64_t left = max_bytes - std::min<std::uint64_t>(max_bytes, text.size());
        const std::uint64_t room = left == UINT64_MAX ? left : left + 1;
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, room));
        const std::size_t old = text.size();
        text.resize(old + want);
        const ::ssize_t got = ::read(in.fd, text.data() + old, want);
        if (got < 0) {
            text.resize(old);
            if (errno == EINTR) continue;
            throw LoadError(name, 0, 0, "", std::string("read error (") + std::strerror(errno) + ")");
        }
        text.resize(old + static_cast<std::size_t>(got));
        if (got == 0) break;
        if (text.size() > max_bytes) throw too_large();
    }
    return text;
}

}  // namespace gameplan::io
