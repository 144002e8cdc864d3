#include "container/index_plan.h"

#include <algorithm>
#include <map>
#include <memory>

#include "container/java_map_replay.h"
#include "java/hash_codes.h"
#include "java/java_text.h"
#include "pyfileindex/index_declarations.h"

namespace pyfileindex::container {

namespace {

using Mode = java::JavaHashMapOrder::Mode;

constexpr std::string_view kThresholdKey = "file-index.in-manifest-threshold";

int32_t JavaStringHash(const std::string& s) {
  Result<int32_t> h = java::StringHashCode(s);
  return h.ok() ? *h : 0;  // names were validated as UTF-8 before they get here
}
int JavaStringCompare(const std::string& a, const std::string& b) {
  return java::StringCompareTo(a, b);
}

// FileIndexOptions.Column: a plain column, or a map column plus one of its keys.
struct ColumnKey {
  std::string name;
  std::optional<std::string> nested;
  bool operator==(const ColumnKey& o) const { return name == o.name && nested == o.nested; }
};

// Arrays.hashCode(new Object[] {columnName, nestedColumnName, isNestedColumn}).
int32_t ColumnKeyHash(const ColumnKey& c) {
  uint32_t h = 1;
  h = 31 * h + static_cast<uint32_t>(JavaStringHash(c.name));
  h = 31 * h + (c.nested ? static_cast<uint32_t>(JavaStringHash(*c.nested)) : 0u);
  h = 31 * h + static_cast<uint32_t>(java::BooleanHashCode(c.nested.has_value()));
  return static_cast<int32_t>(h);
}

// Orders Columns with equal hash codes inside a tree bin. Java's Column is not Comparable, so
// there Java breaks ties by System.identityHashCode: eight or more declared columns whose
// names share String.hashCode, in a map of >= 64 slots (computeIfAbsent treeifies a bin at
// its 8th node), are ordered differently from one JVM run to the next, and no emulation can
// follow (docs/DIFFERENCES.md). Any fixed order is as good; this one is at least stable.
int ColumnKeyCompare(const ColumnKey& a, const ColumnKey& b) {
  int c = JavaStringCompare(a.name, b.name);
  if (c != 0) return c;
  return JavaStringCompare(a.nested.value_or(""), b.nested.value_or(""));
}

ColumnKey ParseColumnName(const std::string& name) {
  const size_t bracket = name.find('[');
  if (bracket != std::string::npos && name.size() >= 2 && name.back() == ']') {
    return ColumnKey{name.substr(0, bracket), name.substr(bracket + 1, name.size() - bracket - 2)};
  }
  return ColumnKey{name, std::nullopt};
}

// A string-keyed map replayed with Java's String hash and compare.
class StringMapReplay : public JavaMapReplay<std::string> {
 public:
  explicit StringMapReplay(Mode mode)
      : JavaMapReplay<std::string>(mode, JavaStringHash, JavaStringCompare) {}
};

// Paimon's Options(Map) is a plain `new HashMap<>()` filled by one put per entry (so it starts
// at 16 buckets and resizes as it grows); the table options iterate in that map's order.
std::vector<size_t> OptionIterationOrder(const Options& options) {
  JavaMapReplay<std::string> keys(Mode::kPut, JavaStringHash, JavaStringCompare);
  for (const auto& entry : options.entries()) keys.Call(entry.first);
  std::vector<size_t> order;
  for (uint32_t id : keys.Order()) order.push_back(id);
  return order;
}

const Field* FindField(const std::vector<Field>& fields, const std::string& name, size_t* index) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == name) {
      *index = i;
      return &fields[i];
    }
  }
  return nullptr;
}

// Java ignores per-index options whose name its index does not read. A misspelt one would
// silently build with the default instead of what was asked for, so here it is an error.
Status CheckOptionName(const index::IndexType& type, const std::string& key,
                       const std::string& option) {
  const std::vector<std::string_view> known = type.OptionNames();
  if (std::find(known.begin(), known.end(), option) != known.end()) return Status::OK();
  std::string known_list;
  for (std::string_view name : known) {
    known_list += (known_list.empty() ? "" : ", ") + std::string(name);
  }
  return Status::InvalidArgument(
      "file index option '", key, "': the ", type.name(),
      " index has no option '", option, "' (",
      (known.empty() ? "it takes none" : "its options: "), known_list, ")");
}

}  // namespace

Result<IndexPlan> PlanIndexes(const std::vector<Field>& fields, const Options& table_options) {
  IndexPlan plan;
  PFI_ASSIGN_OR_RETURN(plan.in_manifest_threshold,
                       table_options.GetMemorySize(kThresholdKey, 500));

  // 1. FileIndexOptions: declarations (Column -> type -> options), replaying both HashMaps.
  JavaMapReplay<ColumnKey> columns(Mode::kComputeIfAbsent, ColumnKeyHash, ColumnKeyCompare);
  std::vector<std::unique_ptr<StringMapReplay>> column_types;  // per column id
  std::map<std::pair<size_t, std::string>, Options> declared_options;  // (column id, type)
  std::map<std::pair<std::string, std::string>, Options> map_level_options;  // (map col, type)
  std::vector<std::pair<std::string, std::string>> other_options;

  const auto& entries = table_options.entries();
  for (size_t i : OptionIterationOrder(table_options)) {
    const std::string& key = entries[i].first;
    const IndexOptionKey parsed = ParseIndexOptionKey(key);
    if (parsed.kind == IndexOptionKey::Kind::kOther) continue;
    if (parsed.kind != IndexOptionKey::Kind::kColumns) {
      other_options.push_back(entries[i]);
      continue;
    }
    const std::string& type_name = parsed.index_type;
    const std::string& value = entries[i].second;
    // Java: value.split(",") (trailing empty pieces dropped), a blank piece refused, the
    // others trimmed. A piece trimmed to nothing names the column "" (which no field has).
    for (const IndexColumnName& piece : SplitIndexColumns(value)) {
      if (piece.blank) {
        return Status::InvalidArgument("option '", key, "' lists an empty column name");
      }
      const std::string& name = piece.name;
      if (!java::StringHashCode(name).ok()) {
        return Status::InvalidArgument("option '", key, "': column name is not valid UTF-8");
      }
      const ColumnKey column = ParseColumnName(name);
      const size_t id = columns.Call(column);
      if (id == column_types.size()) {
        column_types.push_back(std::make_unique<StringMapReplay>(Mode::kComputeIfAbsent));
      }
      column_types[id]->Call(type_name);
      declared_options.emplace(std::make_pair(id, type_name), Options());
      if (column.nested) map_level_options.emplace(std::make_pair(column.name, type_name), Options());
    }
  }

  // Per-index options: file-index.<type>.<column>.<option>, exactly three parts.
  for (const auto& [key, value] : other_options) {
    const IndexOptionKey parsed = ParseIndexOptionKey(key);
    if (parsed.kind != IndexOptionKey::Kind::kIndexOption) continue;  // Java ignores the others
    const std::string& type_name = parsed.index_type;
    const ColumnKey column = ParseColumnName(parsed.column);
    Options* target = nullptr;
    for (size_t id = 0; id < columns.size() && target == nullptr; ++id) {
      if (columns.key(id) == column) {
        auto it = declared_options.find({id, type_name});
        if (it != declared_options.end()) target = &it->second;
      }
    }
    if (target == nullptr && !column.nested) {
      auto it = map_level_options.find({column.name, type_name});
      if (it != map_level_options.end()) target = &it->second;
    }
    if (target == nullptr) {
      return Status::InvalidArgument("file index option '", key, "': column '",
                                     parsed.column, "' is not declared in 'file-index.",
                                     type_name, ".columns'");
    }
    if (const index::IndexType* type = index::FindIndexType(type_name)) {
      // (an unknown type is reported with its columns declaration, below)
      PFI_RETURN_NOT_OK(CheckOptionName(*type, key, parsed.option));
    }
    target->Set(parsed.option, value);
  }
  // Keys under file-index. that no step above reads: Java ignores them too, and the tables it
  // writes can carry them (e.g. file-index.bitmap.version, meant per column), so they are
  // accepted and reported in the order given.
  for (const auto& [key, value] : entries) {
    if (ParseIndexOptionKey(key).kind == IndexOptionKey::Kind::kIgnored) {
      plan.ignored_options.push_back(key);
    }
  }

  // 2. DataFileIndexWriter: type -> column -> maintainer (map columns: key -> writer).
  StringMapReplay types(Mode::kComputeIfAbsent);
  std::vector<std::unique_ptr<StringMapReplay>> type_columns;  // per type id (put)
  std::map<std::pair<size_t, std::string>, std::unique_ptr<StringMapReplay>> map_keys;  // (type, map col)
  std::map<std::tuple<size_t, std::string, std::string>, size_t> nested_index;  // -> plan index
  std::map<std::pair<size_t, std::string>, size_t> plain_index;  // (type, column) -> plan index

  for (uint32_t column_id : columns.Order()) {
    const ColumnKey& column = columns.key(column_id);
    size_t field_index = 0;
    const Field* field = FindField(fields, column.name, &field_index);
    if (field == nullptr) {
      return Status::InvalidArgument("file index column '", column.name,
                                     "' does not exist in the data file's fields");
    }
    for (uint32_t type_id : column_types[column_id]->Order()) {
      const std::string& type_name = column_types[column_id]->key(type_id);
      const index::IndexType* index_type = index::FindIndexType(type_name);
      if (index_type == nullptr) {
        return Status::InvalidArgument("unknown file index type '", type_name,
                                       "' (option file-index.", type_name, ".columns)");
      }
      const size_t t = types.Call(type_name);
      if (t == type_columns.size()) {
        type_columns.push_back(std::make_unique<StringMapReplay>(Mode::kPut));
      }
      const bool exists = [&] {
        for (size_t c = 0; c < type_columns[t]->size(); ++c) {
          if (type_columns[t]->key(c) == column.name) return true;
        }
        return false;
      }();

      PlannedIndex planned;
      planned.field_index = field_index;
      planned.type = index_type;
      planned.options = declared_options.at({column_id, type_name});
      if (column.nested) {
        const DataType& map_type = field->type;
        if (map_type.root != TypeRoot::kMap || map_type.children.size() != 2) {
          return Status::InvalidArgument("column '", column.name, "' is indexed as '",
                                         column.name, "[", *column.nested,
                                         "]' but is not a MAP");
        }
        if (!map_type.children[0].IsString()) {
          return Status::InvalidArgument("map-key index on '", column.name,
                                         "' needs CHAR/VARCHAR map keys, not ",
                                         map_type.children[0].ToString());
        }
        if (!exists) type_columns[t]->Call(column.name);
        auto& keys = map_keys[{t, column.name}];
        if (!keys) keys = std::make_unique<StringMapReplay>(Mode::kPut);
        keys->Call(*column.nested);
        // Map-level options first, then this key's own options on top.
        Options merged = map_level_options.at({column.name, type_name});
        for (const auto& [k, v] : planned.options.entries()) merged.Set(k, v);
        planned.options = std::move(merged);
        planned.map_key = column.nested;
        planned.output_name = column.name + "[" + *column.nested + "]";
        planned.value_type = &map_type.children[1];
        Status check = index_type->CheckType(*planned.value_type);
        if (!check.ok()) return check.WithContext("column '", planned.output_name, "'");
        nested_index[{t, column.name, *column.nested}] = plan.indexes.size();
        plan.indexes.push_back(std::move(planned));
      } else if (!exists) {
        type_columns[t]->Call(column.name);
        planned.output_name = column.name;
        planned.value_type = &field->type;
        Status check = index_type->CheckType(*planned.value_type);
        if (!check.ok()) return check.WithContext("column '", column.name, "'");
        plain_index[{t, column.name}] = plan.indexes.size();
        plan.indexes.push_back(std::move(planned));
      }
    }
  }

  // 3. serializeMaintainers: output column -> type -> payload, then the container's order.
  JavaMapReplay<std::string> outputs(Mode::kComputeIfAbsent, JavaStringHash, JavaStringCompare);
  std::vector<std::unique_ptr<StringMapReplay>> output_types;
  std::vector<std::vector<size_t>> output_indexes;
  auto emit = [&](const std::string& output_name, const std::string& type_name, size_t index) {
    const size_t o = outputs.Call(output_name);
    if (o == output_types.size()) {
      output_types.push_back(std::make_unique<StringMapReplay>(Mode::kPut));
      output_indexes.emplace_back();
    }
    const size_t slot = output_types[o]->Call(type_name);
    if (slot == output_indexes[o].size()) output_indexes[o].push_back(index);
  };
  for (uint32_t t : types.Order()) {
    const std::string& type_name = types.key(t);
    for (uint32_t c : type_columns[t]->Order()) {
      const std::string& column_name = type_columns[t]->key(c);
      auto plain = plain_index.find({t, column_name});
      if (plain != plain_index.end()) {
        emit(column_name, type_name, plain->second);
        continue;
      }
      // A map maintainer returns a HashMap<"m[k]", bytes> filled in its writers' key order.
      const StringMapReplay& keys = *map_keys.at({t, column_name});
      StringMapReplay result(Mode::kPut);
      std::vector<size_t> result_index;
      for (uint32_t k : keys.Order()) {
        const std::string output_name = column_name + "[" + keys.key(k) + "]";
        if (result.Call(output_name) == result_index.size()) {
          result_index.push_back(nested_index.at({t, column_name, keys.key(k)}));
        }
      }
      for (uint32_t r : result.Order()) emit(result.key(r), type_name, result_index[r]);
    }
  }
  for (uint32_t o : outputs.Order()) {
    std::vector<size_t> ordered;
    for (uint32_t slot : output_types[o]->Order()) ordered.push_back(output_indexes[o][slot]);
    plan.layout.emplace_back(outputs.key(o), std::move(ordered));
  }
  return plan;
}

}  // namespace pyfileindex::container
