#include <gameplan/config.hpp>

namespace gameplan {
const char* version() noexcept { return GAMEPLAN_VERSION_STRING; }
}  // namespace gameplan
