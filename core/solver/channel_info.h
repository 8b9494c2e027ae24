// One result channel: a column of a run's result rows.
#pragma once

#include <string>

namespace pm {

struct ChannelInfo {
  std::string name;  // "<object id>.<quantity>"
  std::string unit;
};

}  // namespace pm
