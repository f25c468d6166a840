#include "tb/scenario/yaml_guard.h"

#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

namespace ibsc::tb {
namespace {

// Stops the parse at the first problem (thrown as Stop, caught below).
class ShapeCheck : public YAML::EventHandler {
 public:
  struct Stop {};
  explicit ShapeCheck(YamlShape& out, int max_depth) : out_(out), max_depth_(max_depth) {}

  void OnDocumentStart(const YAML::Mark& m) override {
    if (++out_.documents > 1) stop(m, "a second YAML document ('---' or '...' then more): a scenario is one document");
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t a) override { anchor(m, a); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override {
    stop(m, "YAML alias (*name): anchors and aliases are not accepted; write the value out");
  }
  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a, const std::string&) override {
    node(m, tag, a);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a,
                       YAML::EmitterStyle::value) override {
    open(m, tag, a);
  }
  void OnSequenceEnd() override { --depth_; }
  void OnMapStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a, YAML::EmitterStyle::value) override {
    open(m, tag, a);
  }
  void OnMapEnd() override { --depth_; }
  void OnAnchor(const YAML::Mark& m, const std::string& name) override {
    stop(m, "YAML anchor '&" + name + "': anchors and aliases are not accepted; write the value out");
  }

 private:
  [[noreturn]] void stop(const YAML::Mark& m, const std::string& what) {
    out_.problem = what;
    out_.line = m.is_null() ? 1 : m.line + 1;
    throw Stop{};
  }
  void anchor(const YAML::Mark& m, YAML::anchor_t a) {
    if (a) stop(m, "YAML anchor (&name): anchors and aliases are not accepted; write the value out");
  }
  // "?" is an untagged plain node and "!" an untagged quoted scalar; anything else was written.
  void node(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a) {
    anchor(m, a);
    if (!tag.empty() && tag != "?" && tag != "!")
      stop(m, "YAML tag '" + tag + "' is not accepted: values are plain numbers, strings, lists and sections");
  }
  void open(const YAML::Mark& m, const std::string& tag, YAML::anchor_t a) {
    node(m, tag, a);
    if (++depth_ > max_depth_) stop(m, "nested deeper than " + std::to_string(max_depth_) + " levels");
  }

  YamlShape& out_;
  int max_depth_;
  int depth_ = 0;
};

}  // namespace

YamlShape check_yaml_shape(const std::string& text, int max_depth) {
  YamlShape shape;
  std::istringstream in(text);
  YAML::Parser parser(in);
  ShapeCheck check(shape, max_depth);
  try {
    while (parser.HandleNextDocument(check)) {
    }
  } catch (const ShapeCheck::Stop&) {
  }
  return shape;
}

}  // namespace ibsc::tb
