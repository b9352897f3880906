"""What a target built with Open MPI (`--config=mpi`) says about it.

MPI_ONLY: its target_compatible_with (WITHOUT_MPI_ONLY the reverse); without the config the target is skipped by `//...`
(and refused by name), so the default build needs neither MPI's headers nor its library.
if_mpi(x): `x` under the config, nothing otherwise, for the deps and defines that bring MPI
into a shared target (the registries)."""

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
