// The shape of a YAML text before yaml-cpp builds it, checked on the parser's events: what a
// scenario never needs and yaml-cpp would read silently or explosively is reported with its
// line. Anchors and aliases: an alias chain expands exponentially when walked ("billion
// laughs"); tags (!!str, !foo): yaml-cpp keeps them but every reader here ignores them; a
// second document ("---"): ignored by YAML::Load; nesting deeper than any scenario needs.
#pragma once
#include <string>

namespace ibsc::tb {

struct YamlShape {
  int documents = 0;    // 0 for an empty or comment-only text
  std::string problem;  // "" when the text is acceptable
  int line = 0;         // 1-based line of the problem
};

// Throws YAML::ParserException on a syntax error, as YAML::Load would.
YamlShape check_yaml_shape(const std::string& text, int max_depth = 32);

}  // namespace ibsc::tb
