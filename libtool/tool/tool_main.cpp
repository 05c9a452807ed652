// Placeholder translation unit so the tool library target exists while the tool is written.
namespace rocprof::tool {
int placeholder_symbol = 0;
}
