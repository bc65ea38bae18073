"""Annotate sentence pairs on a Dask cluster (``pip install 'errtype[dask]'``): the documented
import path of :mod:`errtype.convert.dask`, where annotation jobs live::

    from errtype.dask import annotate_bag, write_m2

Dask is imported only when these functions run; ``import errtype`` never imports it.
"""

from .convert.dask import (
    LOCAL_CLUSTER_CONFIG,
    Settings,
    annotate_bag,
    annotate_dataframe,
    connect,
    dask_setup,
    ordered_partitions,
    parallel_to_m2_dask,
    worker_annotator,
    write_m2,
    write_partitions,
)

__all__ = ["LOCAL_CLUSTER_CONFIG", "Settings", "annotate_bag", "annotate_dataframe", "connect",
           "dask_setup", "ordered_partitions", "parallel_to_m2_dask", "worker_annotator",
           "write_m2", "write_partitions"]
