#!/bin/sh
# Checks that every #include "folder/file.h" in core/ points to its own folder or one below it,
# in this order (lowest first; docs/architecture.md, "Layering inside core"):
#
#   expr              expressions: parse, differentiate, evaluate
#   joints            the joint families: every part of each, in 2-D and 3-D, and their table
#   model             the spec, the compiled model and its compiler
#   io                the model files: reader, writer, atomic writes
#   results           what an analysis produces: frames, reports, redundancy
#   solve/equations   the workspace; constraints, forces, measures and reactions at a state
#   solve/linalg      dense and sparse factorizations, KKT systems, pseudoinverses
#   solve             planar_stiffness (the iteration matrices' closed-form stiffness)
#   solve/recording   frames at the output times, the nonconservative work, reaction multipliers
#   solve/assembly    assembly, drag
#   solve/kinematics  kinematic analysis
#   solve/integrators dynamics: hht, bdf, corrected-rk and their parts
#   solve/statics     statics, quasi-statics, dynamic relaxation
#   solve/analysis    a whole analysis as a user starts it
#   output            the results' writers: CSV, JSON summary
#
# Usage: check_core_layers.sh CORE_DIR. Prints each include that goes upward, naming the file,
# the line and the include, and exits 1 if there is one.
core=${1:?usage: check_core_layers.sh CORE_DIR}
layers="expr joints model io results solve/equations solve/linalg solve solve/recording \
solve/assembly solve/kinematics solve/integrators solve/statics solve/analysis output"

cd "$core" || exit 2
find . -name '*.h' -o -name '*.cpp' | sed 's|^\./||' | sort | while read -r file; do
  grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' "$file" | sed "s|^|$file:|"
done | awk -v layers="$layers" '
  function folder(path) { return path ~ /\// ? substr(path, 1, match(path, /\/[^\/]*$/) - 1) : "" }
  BEGIN {
    n = split(layers, names, " ")
    for (i = 1; i <= n; ++i) rank[names[i]] = i
    bad = 0
  }
  {
    file = $0; sub(/:.*/, "", file)
    rest = substr($0, length(file) + 2); line = rest; sub(/:.*/, "", line)
    include = rest; sub(/^[^"]*"/, "", include); sub(/".*/, "", include)
    from = folder(file); to = folder(include)
    if (!(from in rank)) { printf "%s: folder %s is not in the layer order\n", file, from; bad = 1; next }
    if (to == "") to = from  # an include next to the file
    if (!(to in rank)) { printf "%s:%s: #include \"%s\": folder %s is not in the layer order\n", file, line, include, to; bad = 1; next }
    if (rank[to] > rank[from]) {
      printf "%s:%s: #include \"%s\" goes upward: %s is above %s\n", file, line, include, to, from
      bad = 1
    }
  }
  END { exit bad }'
