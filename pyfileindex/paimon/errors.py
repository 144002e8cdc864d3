"""Error types raised by the Paimon metadata layer."""


class PaimonMetadataError(ValueError):
    """A Paimon table's metadata is missing, inconsistent or corrupt.

    Raised with a message naming the table object (snapshot, schema, file)
    that could not be read, so callers never see a bare KeyError/struct.error.
    """


class CommitConflictError(RuntimeError):
    """A commit lost to a concurrent commit on the same table: nothing of it was
    committed. Running the operation again starts from the new latest snapshot."""
