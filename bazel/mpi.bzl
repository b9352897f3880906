"""What a target built with Open MPI (`--config=mpi`) says about it.

MPI_ONLY: its target_compatible_with (WITHOUT_MPI_ONLY the reverse); without the config
the target is skipped by `//...` (and refused by name), so the default build needs
neither MPI's headers nor its library. MPI_COPTS: the copts of a target that includes
<mpi.h>.
if_mpi(x): `x` under the config, nothing otherwise, for the deps and defines that bring MPI
into a shared target (the registries)."""

load("@system_mpi//:copts.bzl", "SYSTEM_MPI_COPTS")

# The copts of a target that includes <mpi.h>: MPI's include directories and defines,
# under the config only, on that target alone (copts do not propagate), so that the
# targets above it compile as in the default build and hit the disk cache.
MPI_COPTS = select({
    "//bazel:mpi": SYSTEM_MPI_COPTS,
    "//conditions:default": [],
})

MPI_ONLY = select({
    "//bazel:mpi": [],
    "//conditions:default": ["//bazel:incompatible"],
})

def if_mpi(value, otherwise = []):
    return select({
        "//bazel:mpi": value,
        "//conditions:default": otherwise,
    })

# The reverse of MPI_ONLY: a target that checks what a build without MPI does.
WITHOUT_MPI_ONLY = select({
    "//bazel:mpi": ["//bazel:incompatible"],
    "//conditions:default": [],
})
