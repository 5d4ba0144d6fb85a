// systemd readiness notification (sd_notify(3) protocol, without libsystemd): one datagram to
// $NOTIFY_SOCKET. A no-op when the variable is unset.
#pragma once

#include <string>

namespace cuzk::server {
// Sends e.g. "READY=1\nSTATUS=listening on ..."; returns false (and does nothing) when
// NOTIFY_SOCKET is unset or the send fails.
bool sd_notify(const std::string& state);
}  // namespace cuzk::server
