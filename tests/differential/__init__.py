"""Differential testing of pyfileindex against Apache Paimon 2.0's own Java code.

The package holds the pieces the `java`-marked tests in tests/test_java_differential*.py are
built from; each module has one job:

* ``column_types`` - Paimon column types: Arrow type, Java encoding, literal forms, order keys.
* ``values``       - value pools per type (extremes, collisions, runs, special floats, ...).
* ``index_kinds``  - the table index type -> data types -> predicates -> options -> exactness.
* ``bloom_model``  - Paimon's bloom filter re-done in Python (an oracle for SKIP answers).
* ``oracle``       - brute force over the values: SQL truth, Java 2.0's answers, TopN.
* ``cases``        - packs of cases (several columns, one container) and their predicates.
* ``generate``     - seeded-random packs; ``strategies`` - the same as hypothesis strategies.
* ``fixed``        - building blocks for the fixed edge cases (explicit columns, sweeps).
* ``runner``       - runs a pack on both sides and compares bytes and answers.

Values are kept in one canonical Python form per type (ints for DATE days, TIME millis and
TIMESTAMP epoch nanoseconds; Decimal for DECIMAL; str/bytes; float), which is also what the
Java harness takes.
"""
