#include <gameplan/path/jps.hpp>

#include <gameplan/path/islands.hpp>

#include "jps_core.hpp"

#include <bit>
#include <cstring>
#include <vector>

namespace gameplan::path {

std::string_view describe(JpsSupport support) noexcept {
    switch (support) {
        case JpsSupport::Ok: return "";
        case JpsSupport::EmptyMap: return "the map has no cells";
        case JpsSupport::NotEightConnected: return "jump point search needs 8-connected movement";
        case JpsSupport::NotNoCornerCutting: return "jump point search supports only the no-corner-cutting diagonal rule";
        case JpsSupport::TerrainCosts:
            return "jump point search needs uniform costs (a passable cell has a terrain cost other than 1)";
        case JpsSupport::BadWeight: return "the weight must be a finite number >= 1";
        case JpsSupport::NonUniformCosts:
            return "jump point search needs uniform costs (the query carries penalties, cost layers or an area filter)";
        case JpsSupport::MemoryBudget: return "the preprocessing would exceed its memory budget";
        case JpsSupport::TimeBudget: return "the preprocessing did not finish before its deadline";
    }
    return "unsupported";
}

JpsSupport check_jps_support(const GridMap& map, const GridSearchOptions& options) noexcept {
    if (const JpsSupport s = detail::check_options(options); s != JpsSupport::Ok) return s;
    if (map.empty()) return JpsSupport::EmptyMap;
    if (detail::count_non_unit_costs(map) != 0) return JpsSupport::TerrainCosts;
    return JpsSupport::Ok;
}

namespace {

// Bits of a line (a row, or a column of the transposed copy) start at bit 64 of the line's words, and
// one more word follows the line, so a scan can always read the word before and after the one it is
// in; bits outside the padded line are 0 = blocked, like the border.
constexpr std::uint32_t kLineMargin = 64;

constexpr std::uint32_t words_per_line(std::uint32_t length) noexcept { return (length + kLineMargin + 63) / 64 + 1; }

// Straight scan towards increasing positions from position p along `line`, whose neighbouring lines
// are `side_a` and `side_b`. Returns the jump table entry (see jps_plus.hpp): +d for a jump point d
// cells away (a free cell whose neighbour in a side line is free while the side cell before it is
// blocked), -d when the line is blocked after d free cells.
//
// Works on the aligned 64-bit words of the three lines: bit k of (A << 1 | carry) is the side cell
// before cell k, so `A & ~(A << 1 | carry)` marks forced neighbours of a whole word at once, and the
// first stop (forced neighbour or wall) is one count-trailing-zeros away. The word before the first
// one always exists (kLineMargin), and the border cell guarantees a stop.
inline std::int32_t scan_forward(const std::uint64_t* line, const std::uint64_t* side_a, const std::uint64_t* side_b,
                                 std::int32_t p) noexcept {
    const auto first = static_cast<std::uint32_t>(p + 1) + kLineMargin;
    std::uint32_t i = first >> 6;
    std::uint64_t a = side_a[i], b = side_b[i], r = line[i];
    std::uint64_t forced = (a & ~((a << 1) | (side_a[i - 1] >> 63))) | (b & ~((b << 1) | (side_b[i - 1] >> 63)));
    std::uint64_t stop = (forced | ~r) & (~std::uint64_t{0} << (first & 63));
    while (stop == 0) {
        const std::uint64_t carry_a = a >> 63, carry_b = b >> 63;
        ++i;
        a = side_a[i];
        b = side_b[i];
        r = line[i];
        forced = (a & ~((a << 1) | carry_a)) | (b & ~((b << 1) | carry_b));
        stop = forced | ~r;
    }
    const int j = std::countr_zero(stop);
    const std::int32_t c = static_cast<std::int32_t>((i << 6) + static_cast<std::uint32_t>(j) - kLineMargin);
    return ((r >> j) & 1u) ? c - p : -(c - p - 1);
}

// Mirror of scan_forward towards decreasing positions: the side cell before cell k is k + 1.
inline std::int32_t scan_backward(const std::uint64_t* line, const std::uint64_t* side_a, const std::uint64_t* side_b,
                                  std::int32_t p) noexcept {
    const auto first = static_cast<std::uint32_t>(p - 1) + kLineMargin;
    std::uint32_t i = first >> 6;
    std::uint64_t a = side_a[i], b = side_b[i], r = line[i];
    std::uint64_t forced = (a & ~((a >> 1) | (side_a[i + 1] << 63))) | (b & ~((b >> 1) | (side_b[i + 1] << 63)));
    std::uint64_t stop = (forced | ~r) & (~std::uint64_t{0} >> (63 - (first & 63)));
    while (stop == 0) {
        const std::uint64_t carry_a = a << 63, carry_b = b << 63;
        --i;
        a = side_a[i];
        b = side_b[i];
        r = line[i];
        forced = (a & ~((a >> 1) | carry_a)) | (b & ~((b >> 1) | carry_b));
        stop = forced | ~r;
    }
    const int j = 63 - std::countl_zero(stop);
    const std::int32_t c = static_cast<std::int32_t>((i << 6) + static_cast<std::uint32_t>(j) - kLineMargin);
    return ((r >> j) & 1u) ? p - c : -(p - c - 1);
}

// Successor generation by scanning the bit-packed snapshot (see jps_core.hpp for the contract).
struct OnlineJumper {
    const std::uint64_t* rows = nullptr;
    std::uint32_t row_words = 0;
    const std::uint64_t* cols = nullptr;
    std::uint32_t col_words = 0;
    const std::uint8_t* pass = nullptr;
    std::uint32_t delta[8] = {};
    detail::JpsTarget goal{};

    [[nodiscard]] const std::uint64_t* row(std::int32_t y) const noexcept {
        return rows + static_cast<std::size_t>(y) * row_words;
    }
    [[nodiscard]] const std::uint64_t* col(std::int32_t x) const noexcept {
        return cols + static_cast<std::size_t>(x) * col_words;
    }

    void prefetch(std::uint32_t node) const noexcept {
        __builtin_prefetch(pass + node - delta[detail::kDirS]);
        __builtin_prefetch(pass + node + delta[detail::kDirS]);
    }

    // Scan of straight direction D from (x, y), given the bit line through (x, y) in D's orientation
    // (the row for E/W, the column for N/S) and the line stride.
    template <int D>
    [[nodiscard]] static std::int32_t scan(const std::uint64_t* line, std::ptrdiff_t line_stride, std::int32_t x,
                                           std::int32_t y) noexcept {
        if constexpr (D == detail::kDirE) return scan_forward(line, line - line_stride, line + line_stride, x);
        if constexpr (D == detail::kDirW) return scan_backward(line, line - line_stride, line + line_stride, x);
        if constexpr (D == detail::kDirS) return scan_forward(line, line - line_stride, line + line_stride, y);
        if constexpr (D == detail::kDirN) return scan_backward(line, line - line_stride, line + line_stride, y);
    }

    [[nodiscard]] static bool bit_at(const std::uint64_t* line, std::int32_t position) noexcept {
        const auto b = static_cast<std::uint32_t>(position) + kLineMargin;
        return ((line[b >> 6] >> (b & 63)) & 1u) != 0;
    }

    // Emits the jump point (entry v > 0) or the goal found by a scan of direction D from (x, y).
    template <int D, class Emit>
    void emit_ray(std::int32_t v, std::uint32_t node, std::int32_t x, std::int32_t y, double base, Emit& emit) const {
        constexpr std::int32_t dx = detail::kDirDx[D], dy = detail::kDirDy[D];
        std::int32_t t = 0;
        if constexpr (dx != 0) {
            if (goal.y == y) t = (goal.x - x) * dx;
        } else {
            if (goal.x == x) t = (goal.y - y) * dy;
        }
        if (t > 0 && t <= detail::reach_of(v)) {
            emit(goal.node, goal.x, goal.y, base + t);
        } else if (v > 0) {
            emit(node + static_cast<std::uint32_t>(v) * delta[D], x + v * dx, y + v * dy, base + v);
        }
    }

    template <int D, class Emit>
    void straight_in(std::uint32_t node, std::int32_t x, std::int32_t y, Emit& emit) const {
        std::int32_t v;
        if constexpr (D == detail::kDirE || D == detail::kDirW)
            v = scan<D>(row(y), row_words, x, y);
        else
            v = scan<D>(col(x), col_words, x, y);
        emit_ray<D>(v, node, x, y, 0.0, emit);
    }

    // The diagonal walk, with the direction known at compile time and the row and column bit lines of
    // the current cell stepped along with it.
    template <int D, class Emit>
    void diagonal_in(std::uint32_t node, std::int32_t x, std::int32_t y, double limit, Emit& emit) const {
        constexpr int dv = detail::vertical_part(D), dh = detail::horizontal_part(D);
        constexpr std::int32_t ddx = detail::kDirDx[D], ddy = detail::kDirDy[D];
        const std::uint32_t step = delta[D];
        const std::ptrdiff_t rs = row_words, cs = col_words;
        const std::uint64_t* r = row(y);  // row of the current cell
        const std::uint64_t* c = col(x);  // column of the current cell
        // The next diagonal step needs both straight neighbours free, which the two scans of the
        // current cell report for free (an entry of 0 means a blocked neighbour), and the diagonal
        // cell itself, one bit of the row bitmap: no byte-map lookups in the walk.
        if (!(bit_at(r, x + ddx) && bit_at(r + ddy * rs, x) && bit_at(r + ddy * rs, x + ddx))) return;
        std::uint32_t z = node;
        std::int32_t t = 0;
        for (;;) {
            z += step;
            x += ddx;
            y += ddy;
            r += ddy * rs;
            c += ddx * cs;
            ++t;
            const double base = t * kDiagonalStep;
            if (base + detail::octile_to(goal, x, y) >= limit) return;  // nothing further can beat the goal
            if (z == goal.node) {
                emit(goal.node, goal.x, goal.y, base);
                return;
            }
            const std::int32_t vv = scan<dv>(c, cs, x, y);
            emit_ray<dv>(vv, z, x, y, base, emit);
            const std::int32_t vh = scan<dh>(r, rs, x, y);
            emit_ray<dh>(vh, z, x, y, base, emit);
            if (vv == 0 || vh == 0 || !bit_at(r + ddy * rs, x + ddx)) return;
        }
    }

    template <class Emit>
    void straight(std::uint32_t node, std::int32_t x, std::int32_t y, int d, Emit& emit) const {
        switch (d) {
            case detail::kDirN: return straight_in<detail::kDirN>(node, x, y, emit);
            case detail::kDirE: return straight_in<detail::kDirE>(node, x, y, emit);
            case detail::kDirS: return straight_in<detail::kDirS>(node, x, y, emit);
            default: return straight_in<detail::kDirW>(node, x, y, emit);
        }
    }

    template <class Emit>
    void diagonal(std::uint32_t node, std::int32_t x, std::int32_t y, int d, double limit, Emit& emit) const {
        switch (d) {
            case detail::kDirNE: return diagonal_in<detail::kDirNE>(node, x, y, limit, emit);
            case detail::kDirSE: return diagonal_in<detail::kDirSE>(node, x, y, limit, emit);
            case detail::kDirSW: return diagonal_in<detail::kDirSW>(node, x, y, limit, emit);
            default: return diagonal_in<detail::kDirNW>(node, x, y, limit, emit);
        }
    }
};

}  // namespace

struct JpsPathfinder::Impl {
    detail::JpsSearch search;
    OnlineJumper jumper;
    std::vector<std::uint8_t> pass;    // padded passability snapshot
    std::vector<std::uint64_t> rows;   // bit-packed rows, row_words words per padded row
    std::vector<std::uint64_t> cols;   // bit-packed columns (transposed), col_words words per padded column
    std::uint32_t row_words = 0;
    std::uint32_t col_words = 0;
    const GridMap* map = nullptr;      // identity of the snapshot's map, never dereferenced by a search
    std::uint32_t bound = 0;
    std::uint32_t stride = 0;
    std::int32_t width = 0;
    std::int32_t height = 0;
    std::uint64_t version = 0;
    std::int64_t non_unit = 0;         // passable cells with a terrain cost other than 1
    std::uint64_t syncs = 0;
    bool synced = false;

    [[nodiscard]] bool same_map(const GridMap& m) const noexcept {
        return synced && &m == map && m.node_bound() == bound && m.stride() == stride;
    }
    [[nodiscard]] bool in_sync(const GridMap& m) const noexcept { return same_map(m) && m.version() == version; }

    void set_bits(std::uint32_t px, std::uint32_t py, bool on) noexcept {
        std::uint64_t& r = rows[static_cast<std::size_t>(py) * row_words + ((px + kLineMargin) >> 6)];
        std::uint64_t& c = cols[static_cast<std::size_t>(px) * col_words + ((py + kLineMargin) >> 6)];
        const std::uint64_t rb = std::uint64_t{1} << ((px + kLineMargin) & 63);
        const std::uint64_t cb = std::uint64_t{1} << ((py + kLineMargin) & 63);
        if (on) {
            r |= rb;
            c |= cb;
        } else {
            r &= ~rb;
            c &= ~cb;
        }
    }

    void sync(const GridMap& m) {
        synced = false;
        const auto data = m.passable_data();
        bound = m.node_bound();
        stride = m.stride();
        width = m.width();
        height = m.height();
        pass.assign(data.begin(), data.end());
        const auto padded_w = static_cast<std::uint32_t>(width) + 2, padded_h = static_cast<std::uint32_t>(height) + 2;
        row_words = words_per_line(padded_w);
        col_words = words_per_line(padded_h);
        rows.assign(static_cast<std::size_t>(padded_h) * row_words, 0);
        cols.assign(static_cast<std::size_t>(padded_w) * col_words, 0);
        for (std::uint32_t y = 1; y + 1 < padded_h; ++y) {
            const std::uint8_t* line = pass.data() + static_cast<std::size_t>(y) * stride;
            std::uint64_t* row = rows.data() + static_cast<std::size_t>(y) * row_words;
            const std::uint64_t cb = std::uint64_t{1} << ((y + kLineMargin) & 63);
            const std::size_t cw = (y + kLineMargin) >> 6;
            for (std::uint32_t x = 1; x + 1 < padded_w; ++x) {
                if (!line[x]) continue;
                row[(x + kLineMargin) >> 6] |= std::uint64_t{1} << ((x + kLineMargin) & 63);
                cols[static_cast<std::size_t>(x) * col_words + cw] |= cb;
            }
        }
        non_unit = static_cast<std::int64_t>(detail::count_non_unit_costs(m));
        map = &m;
        version = m.version();
        synced = true;
        ++syncs;
    }
};

JpsPathfinder::JpsPathfinder() : m_impl(std::make_unique<Impl>()) {}
JpsPathfinder::~JpsPathfinder() = default;
JpsPathfinder::JpsPathfinder(JpsPathfinder&&) noexcept = default;
JpsPathfinder& JpsPathfinder::operator=(JpsPathfinder&&) noexcept = default;

void JpsPathfinder::sync(const GridMap& map, std::size_t open_entries, bool prefault) {
    m_impl->search.invalid();  // the old search's snapshot is about to change shape
    m_impl->sync(map);
    m_impl->search.reserve(map.node_bound(), open_entries, prefault);
}

void JpsPathfinder::reserve(const GridMap& map, std::size_t open_entries, bool prefault) {
    if (!m_impl->in_sync(map)) {
        sync(map, open_entries, prefault);
        return;
    }
    m_impl->search.reserve(map.node_bound(), open_entries, prefault);
}

bool JpsPathfinder::update_cell(const GridMap& map, GridPoint p) noexcept {
    Impl& s = *m_impl;
    if (!s.same_map(map) || !map.contains(p)) return false;
    const std::uint32_t node = map.index(p);
    const std::uint8_t now = map.passable(p) ? 1 : 0;
    if (s.pass[node] == now) return false;
    s.pass[node] = now;
    s.set_bits(static_cast<std::uint32_t>(p.x) + 1, static_cast<std::uint32_t>(p.y) + 1, now != 0);
    if (map.has_terrain_costs() && map.cost(p) != 1u) s.non_unit += now ? 1 : -1;
    ++s.version;
    return true;
}

Status JpsPathfinder::begin(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options) {
    Impl& s = *m_impl;
    if (detail::check_options(options) != JpsSupport::Ok || map.empty()) return s.search.invalid();
    if (!s.in_sync(map)) s.sync(map);
    if (s.non_unit != 0) return s.search.invalid();
    if (!map.contains(start) || !map.contains(goal)) return s.search.invalid();
    if (!s.pass[map.index(start)] || !s.pass[map.index(goal)]) return s.search.invalid();
    if (islands_prove_unreachable(map, options, start, goal)) return s.search.no_path();
    if (s.search.begin(s.pass.data(), s.bound, s.stride, start, goal, options) != Status::InProgress) return s.search.status();
    s.jumper.rows = s.rows.data();
    s.jumper.row_words = s.row_words;
    s.jumper.cols = s.cols.data();
    s.jumper.col_words = s.col_words;
    s.jumper.pass = s.pass.data();
    for (int d = 0; d < 8; ++d) s.jumper.delta[d] = detail::dir_delta(d, s.stride);
    s.jumper.goal = s.search.goal();
    return Status::InProgress;
}

Status JpsPathfinder::step(std::uint64_t slice_expansions) { return m_impl->search.run(m_impl->jumper, slice_expansions); }

Status JpsPathfinder::finish(GridPath& out) const { return m_impl->search.finish(out); }

Status JpsPathfinder::find_path(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options,
                                GridPath& out) {
    if (begin(map, start, goal, options) == Status::InProgress) step();
    return finish(out);
}

Status JpsPathfinder::status() const noexcept { return m_impl->search.status(); }
search::BudgetLimit JpsPathfinder::budget_limit() const noexcept { return m_impl->search.budget_limit(); }
const search::SearchStats& JpsPathfinder::stats() const noexcept { return m_impl->search.stats(); }
bool JpsPathfinder::closed(GridPoint p) const noexcept {
    return m_impl && p.x < m_impl->width && p.y < m_impl->height && m_impl->search.closed(p.x, p.y);
}
double JpsPathfinder::cost() const noexcept { return m_impl->search.cost(); }
std::size_t JpsPathfinder::jump_point_count() const noexcept { return m_impl->search.jump_point_count(); }
std::uint64_t JpsPathfinder::map_version() const noexcept { return m_impl->version; }
std::uint64_t JpsPathfinder::sync_count() const noexcept { return m_impl->syncs; }
std::size_t JpsPathfinder::memory_bytes() const noexcept { return m_impl->search.memory_bytes(); }
std::size_t JpsPathfinder::snapshot_bytes() const noexcept {
    const Impl& s = *m_impl;
    return s.pass.capacity() + (s.rows.capacity() + s.cols.capacity()) * sizeof(std::uint64_t);
}

}  // namespace gameplan::path
