"""The command line's argument handling, exit codes and error messages.

Every case here fails before the native library is asked anything, so these tests
pin down the CLI contract on their own; tests/test_cli.py runs the commands end to end.
"""

import json

import pytest

from conftest import GOLDEN_DIR
from pyfileindex import cli
from pyfileindex.cli import build_parser, main, parse_top_n
from pyfileindex.top_n import TopN

BSI_TABLE = GOLDEN_DIR / "paimon-java-tables" / "append_with_bsi.db" / "append_with_bsi"
BSI_SCHEMA = BSI_TABLE / "schema" / "schema-0"


def run(capsys, *argv):
    """(exit status, stdout, stderr) of `pyfileindex argv...`."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(err: str, *fragments: str) -> None:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("pyfileindex")
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


@pytest.fixture
def schema_without_index(tmp_path):
    path = tmp_path / "schema-0"
    path.write_text(json.dumps({
        "version": 3, "id": 0, "highestFieldId": 1,
        "fields": [{"id": 0, "name": "a", "type": "INT"}, {"id": 1, "name": "b", "type": "STRING"}],
        "partitionKeys": [], "primaryKeys": [], "options": {"bucket": "-1"}}))
    return path


class TestUsage:
    def test_help_lists_the_commands(self, capsys):
        status, out, err = run(capsys, "--help")
        assert status == 0 and err == ""
        for command in ("build", "inspect", "query", "demo", "spark"):
            assert command in out

    @pytest.mark.parametrize("command", ["build", "inspect", "query", "demo", "spark"])
    def test_every_command_has_help(self, capsys, command):
        status, out, _ = run(capsys, command, "--help")
        assert status == 0
        assert out.startswith(f"usage: pyfileindex {command}")

    def test_version(self, capsys):
        from importlib.metadata import version

        import pyfileindex

        status, out, _ = run(capsys, "--version")
        assert status == 0
        assert out == (f"pyfileindex {version('pyfileindex')} "
                       f"(native {pyfileindex.library_version()}, CRoaring 5.2.2, "
                       f"SIMD {pyfileindex.simd_level()})\n")

    def test_no_command(self, capsys):
        status, out, err = run(capsys)
        assert status == 2 and out == ""
        assert_one_line_error(err, "missing COMMAND")

    def test_unknown_command(self, capsys):
        status, _, err = run(capsys, "frobnicate")
        assert status == 2
        assert_one_line_error(err, "invalid choice: 'frobnicate'")

    @pytest.mark.parametrize("argv,fragment", [
        (["build", "data.parquet", "-o", "out"], "required: --schema"),
        (["build", "data.parquet", "--schema", "s"], "-o/--output"),
        (["build", "--schema", "s", "-o", "out"], "DATA_FILE"),
        (["build", "d", "--schema", "s", "-o", "out", "--option", "novalue"],
         "expected KEY=VALUE, got 'novalue'"),
        (["build", "d", "--schema", "s", "-o", "out", "--option", "=v"], "expected KEY=VALUE"),
        (["inspect"], "INDEX_FILE"),
        (["inspect", "a", "b"], "unrecognized arguments: b"),
        (["query", "idx", "f0 = 1"], "required: --schema"),
        (["query", "idx", "--schema", "s"], "give a PREDICATE, --top-n, or both"),
        (["query", "idx", "--schema", "s", "a = 1", "b = 2"], "unrecognized arguments: b = 2"),
        (["query", "idx", "--schema", "s", "--top-n", "f1 DESC"], "LIMIT n"),
        (["query", "idx", "--schema", "s", "--top-n", "f1 LIMIT x"], "non-negative integer"),
        (["query", "idx", "--schema", "s", "--top-n", "f1 LIMIT -1"], "non-negative integer"),
        (["query", "idx", "--schema", "s", "--top-n", "1 + 2 LIMIT 3"], "--top-n"),
        (["query", "idx", "--schema", "s", "--top-n", "f1 LIMIT 3 WITH"], "WITH TIES"),
        (["spark", "query", "t", "--top-n", "f1 LIMIT 3 WITH TIES"],
         "WITH TIES is not supported by spark query"),
        (["spark", "query", "t", "a = 1", "--count", "--limit", "3"],
         "--count takes a PREDICATE"),
        (["query", "idx", "--schema", "s", "--frob"], "unrecognized arguments: --frob"),
        (["demo", "--rows", "many"], "invalid int value: 'many'"),
    ])
    def test_bad_usage_exits_2_with_one_line(self, capsys, argv, fragment):
        status, out, err = run(capsys, *argv)
        assert status == 2 and out == ""
        assert_one_line_error(err, fragment)

    def test_demo_with_a_missing_golden_dir_fails_with_one_line(self, capsys, tmp_path):
        status, out, err = run(capsys, "demo", "--golden", str(tmp_path / "absent"))
        assert status != 0
        assert_one_line_error(err, "not a directory")


class TestArgumentShapes:
    @pytest.mark.parametrize("argv", [
        ["query", "idx", "--schema", "s", "f0 = 1"],
        ["query", "idx", "f0 = 1", "--schema", "s"],
        ["query", "--schema", "s", "idx", "f0 = 1"],
        ["query", "--json", "idx", "--schema", "s", "f0 = 1"],
    ])
    def test_query_options_and_operands_mix_in_any_order(self, argv):
        args = build_parser().parse_args(argv)
        assert (args.index_file, args.schema, args.predicate) == ("idx", "s", "f0 = 1")

    def test_a_predicate_starting_with_a_dash_after_double_dash(self):
        args = build_parser().parse_args(["query", "idx", "--schema", "s", "--", "-1 < f1"])
        assert args.predicate == "-1 < f1"

    def test_query_defaults(self):
        args = build_parser().parse_args(["query", "idx", "--schema", "s", "--top-n",
                                          "f1 desc limit 3"])
        assert args.predicate is None and args.json is False
        assert args.top_n == TopN("f1", 3, descending=True, nulls_first=False)

    def test_build_options_repeat_and_keep_equals_in_values(self):
        args = build_parser().parse_args([
            "build", "d.parquet", "--schema", "s", "-o", "out",
            "--option", "file-index.bitmap.columns=f0,f1", "--option", "a=b=c", "--option", "e="])
        assert args.option == [("file-index.bitmap.columns", "f0,f1"), ("a", "b=c"), ("e", "")]
        assert (args.data_file, args.output) == ("d.parquet", "out")

    def test_inspect_schema_is_optional(self):
        args = build_parser().parse_args(["inspect", "x.index", "--json"])
        assert args.schema is None and args.json is True


class TestTopN:
    @pytest.mark.parametrize("text,spec", [
        ("f1 LIMIT 10", TopN("f1", 10, False, True)),
        ("f1 ASC LIMIT 10", TopN("f1", 10, False, True)),
        ("f1 DESC LIMIT 10", TopN("f1", 10, True, False)),
        ("f1 desc nulls first limit 0", TopN("f1", 0, True, True)),
        ("f1 ASC NULLS LAST LIMIT 2", TopN("f1", 2, False, False)),
        ("f1 NULLS LAST LIMIT 2", TopN("f1", 2, False, False)),
        ('  "My Col"  DESC   LIMIT 5 ', TopN("My Col", 5, True, False)),
        ("m['k'] DESC LIMIT 1", TopN("m[k]", 1, True, False)),
        ("`desc` LIMIT 1", TopN("desc", 1, False, True)),
        ("f1 DESC LIMIT 10 WITH TIES", TopN("f1", 10, True, False, with_ties=True)),
        ("f1 nulls last limit 2  with   ties ", TopN("f1", 2, False, False, True)),
        ('"WITH TIES" LIMIT 2', TopN("WITH TIES", 2, False, True)),
    ])
    def test_grammar(self, text, spec):
        assert parse_top_n(text) == spec

    @pytest.mark.parametrize("text", ["", "LIMIT 3", "f1", "f1 DESC", "f1 LIMIT", "f1 LIMIT 1.5",
                                      "f1 SIDEWAYS LIMIT 3", "f1 NULLS MIDDLE LIMIT 3",
                                      "f1 LIMIT 3 WITH", "f1 LIMIT 3 TIES",
                                      "f1 LIMIT 3 WITH TIES ONLY", "f1 WITH TIES LIMIT 3",
                                      "f1 LIMIT WITH TIES"])
    def test_bad_specs(self, text):
        with pytest.raises(ValueError):
            parse_top_n(text)

    def test_text_form(self):
        assert str(parse_top_n("f1 DESC LIMIT 3")) == "f1 DESC NULLS LAST LIMIT 3"
        spec = parse_top_n("f1 limit 3 with ties")
        assert str(spec) == "f1 ASC NULLS FIRST LIMIT 3 WITH TIES"
        assert parse_top_n(str(spec)) == spec


class TestErrorsBeforeTheIndexIsRead:
    def test_missing_schema_file(self, capsys, tmp_path):
        status, out, err = run(capsys, "query", str(tmp_path / "x.index"), "--schema",
                               str(tmp_path / "nope"), "f1 = 1")
        assert status == 1 and out == ""
        assert_one_line_error(err, "schema file not found", "nope")

    def test_malformed_schema_file(self, capsys, tmp_path):
        schema = tmp_path / "schema-0"
        schema.write_text('{"id": 0, "fields": [{"id": 0, "name": "a"}]}')
        status, _, err = run(capsys, "query", "x.index", "--schema", str(schema), "a = 1")
        assert status == 1
        assert_one_line_error(err, "field 'a': 'type' is missing")

    @pytest.mark.parametrize("predicate,fragment", [
        ("f1 = ", "cannot parse predicate"),
        ("f1 LIKE 'a%'", "string patterns need a CHAR, VARCHAR or STRING column"),
        ("nope = 1", "unknown column 'nope'"),
        ("f1 = 'abc'", "column 'f1' of type INT"),
        ("f1 = 1.5", "not integral"),
        ("f4 = TIMESTAMP 'soon'", "invalid TIMESTAMP"),
        ("f2 = NULL", "use IS NULL"),
    ])
    def test_bad_predicates(self, capsys, tmp_path, predicate, fragment):
        status, out, err = run(capsys, "query", str(tmp_path / "x.index"), "--schema",
                               str(BSI_SCHEMA), predicate)
        assert status == 1 and out == ""
        assert_one_line_error(err, fragment)

    def test_unknown_top_n_column(self, capsys, tmp_path):
        status, _, err = run(capsys, "query", str(tmp_path / "x.index"), "--schema",
                             str(BSI_SCHEMA), "--top-n", "zz DESC LIMIT 3")
        assert status == 1
        assert_one_line_error(err, "unknown column 'zz'")

    def test_missing_index_file(self, capsys, tmp_path):
        status, _, err = run(capsys, "query", str(tmp_path / "x.index"), "--schema",
                             str(BSI_SCHEMA), "f1 = 1")
        assert status == 1
        assert_one_line_error(err, "index file not found", "x.index")
        status, _, err = run(capsys, "inspect", str(tmp_path / "y.index"))
        assert status == 1
        assert_one_line_error(err, "index file not found")
        status, _, err = run(capsys, "inspect", str(tmp_path))
        assert status == 1
        assert_one_line_error(err, "not an index file but a directory", str(tmp_path))

    def test_build_without_any_index_option(self, capsys, tmp_path, schema_without_index):
        out_file = tmp_path / "out.index"
        status, out, err = run(capsys, "build", str(tmp_path / "d.parquet"), "--schema",
                               str(schema_without_index), "-o", str(out_file))
        assert status == 1 and out == ""
        assert_one_line_error(err, "declare no file index")
        assert not out_file.exists()

    def test_build_with_an_empty_columns_option_declares_nothing(self, capsys, tmp_path):
        status, _, err = run(capsys, "build", "d.parquet", "--schema", str(BSI_SCHEMA), "-o",
                             str(tmp_path / "o"), "--option", "file-index.bsi.columns=")
        assert status == 1
        assert_one_line_error(err, "declare no file index")

    def test_build_missing_data_file(self, capsys, tmp_path, schema_without_index):
        status, _, err = run(capsys, "build", str(tmp_path / "d.parquet"), "--schema",
                             str(schema_without_index), "-o", str(tmp_path / "o"),
                             "--option", "file-index.bitmap.columns=a")
        assert status == 1
        assert_one_line_error(err, "data file not found")

    def test_build_unreadable_data_file(self, capsys, tmp_path, schema_without_index):
        data = tmp_path / "d.bin"
        data.write_bytes(b"this is neither parquet nor orc")
        status, _, err = run(capsys, "build", str(data), "--schema", str(schema_without_index),
                             "-o", str(tmp_path / "o"), "--option", "file-index.bitmap.columns=a")
        assert status == 1
        assert_one_line_error(err, "cannot read data file", "parquet", "orc")

    def test_build_indexed_column_missing_from_the_data_file(self, capsys, tmp_path,
                                                             schema_without_index):
        import pyarrow as pa
        import pyarrow.parquet as pq

        data = tmp_path / "d.parquet"
        pq.write_table(pa.table({"b": ["x", "y"]}), data)
        status, _, err = run(capsys, "build", str(data), "--schema", str(schema_without_index),
                             "-o", str(tmp_path / "o"),
                             "--option", "file-index.bitmap.columns=a")
        assert status == 1
        assert_one_line_error(err, "indexed column(s) a not found in")
        # A column the schema lacks too is the options' error, in the native writer's words.
        status, _, err = run(capsys, "build", str(data), "--schema", str(schema_without_index),
                             "-o", str(tmp_path / "o"),
                             "--option", "file-index.bitmap.columns=a,m[k]")
        assert status == 1
        assert_one_line_error(err, "file index column 'm' does not exist")


class TestTopLevelErrorHandling:
    def test_unexpected_exceptions_become_one_line(self, capsys, monkeypatch):
        def explode(args):
            raise RuntimeError("boom\nsecond line")

        monkeypatch.setattr(cli, "_cmd_inspect", explode)
        monkeypatch.delenv(cli.DEBUG_ENV, raising=False)
        status, _, err = run(capsys, "inspect", "x.index")
        assert status == 1
        assert_one_line_error(err, "internal error (RuntimeError): boom second line",
                              "PYFILEINDEX_DEBUG=1")

    def test_value_errors_are_reported_plainly(self, capsys, monkeypatch):
        class FileIndexError(ValueError):
            pass

        def fail(args):
            raise FileIndexError("corrupt index: header truncated at byte 12")

        monkeypatch.setattr(cli, "_cmd_inspect", fail)
        status, _, err = run(capsys, "inspect", "x.index")
        assert status == 1
        assert err == "pyfileindex: error: corrupt index: header truncated at byte 12\n"

    def test_os_errors_name_the_file(self, capsys, monkeypatch):
        def fail(args):
            raise PermissionError(13, "Permission denied", "/some/out.index")

        monkeypatch.setattr(cli, "_cmd_inspect", fail)
        status, _, err = run(capsys, "inspect", "x.index")
        assert status == 1
        assert err == "pyfileindex: error: Permission denied: /some/out.index\n"

    def test_debug_env_shows_the_traceback(self, capsys, monkeypatch):
        def explode(args):
            raise RuntimeError("boom")

        monkeypatch.setattr(cli, "_cmd_inspect", explode)
        monkeypatch.setenv(cli.DEBUG_ENV, "1")
        status, _, err = run(capsys, "inspect", "x.index")
        assert status == 1
        assert "Traceback (most recent call last)" in err
        assert err.rstrip().splitlines()[-1].startswith("pyfileindex: error: internal error")

    def test_keyboard_interrupt(self, capsys, monkeypatch):
        def interrupt(args):
            raise KeyboardInterrupt

        monkeypatch.setattr(cli, "_cmd_inspect", interrupt)
        status, _, err = run(capsys, "inspect", "x.index")
        assert status == 130
        assert_one_line_error(err, "interrupted")


class TestCatalogOptionsFile:
    """--catalog-options-file: KEY=VALUE lines and # comments; flags override the file;
    errors name the file and the line, never a value."""

    SECRET = "s3cr3t-value-91c4"

    def _captured(self, monkeypatch):
        from pyfileindex.spark import commands
        seen = {}

        def index(table, options, tasks, master, archive, conf, out=None,
                  catalog_options=None):
            seen["catalog_options"] = catalog_options
            return 0

        monkeypatch.setattr(commands, "index", index)
        return seen

    def test_file_values_with_flags_overriding(self, capsys, monkeypatch, tmp_path):
        seen = self._captured(monkeypatch)
        path = tmp_path / "catalog.properties"
        path.write_text("# the test store\n\n"
                        "fs.s3.endpoint = http://127.0.0.1:9000\n"
                        f"fs.s3.accessKeySecret={self.SECRET}\n"
                        "fs.s3.region=eu-west-1\n"
                        "  token.with.equals = a=b==  \n")
        status, out, err = run(capsys, "spark", "index", "s3://b/w/db.db/t",
                               "--catalog-options-file", str(path),
                               "--catalog-option", "fs.s3.region=us-east-1")
        assert status == 0, err
        assert seen["catalog_options"] == {
            "fs.s3.endpoint": "http://127.0.0.1:9000", "fs.s3.accessKeySecret": self.SECRET,
            "fs.s3.region": "us-east-1", "token.with.equals": "a=b=="}
        assert self.SECRET not in out + err

    @pytest.mark.parametrize("command", [["demo"], ["spark", "query", "t", "a = 1"],
                                         ["spark", "write", "t", "--input", "x"]])
    def test_every_catalog_command_takes_it(self, command, tmp_path):
        path = tmp_path / "options"
        path.write_text("k=v\n")
        args = build_parser().parse_args(command + ["--catalog-options-file", str(path)])
        assert cli._catalog_options(args) == {"k": "v"}

    def test_a_malformed_line_is_named_without_its_text(self, capsys, monkeypatch, tmp_path):
        seen = self._captured(monkeypatch)
        path = tmp_path / "options"
        path.write_text(f"fs.s3.endpoint=http://x\n# comment\n{self.SECRET}\n")
        status, out, err = run(capsys, "spark", "index", "t", "--catalog-options-file",
                               str(path))
        assert status == 1 and not seen
        assert_one_line_error(err, str(path), "line 3", "expected KEY=VALUE")
        assert self.SECRET not in out + err

    def test_a_missing_file_is_named(self, capsys, monkeypatch, tmp_path):
        self._captured(monkeypatch)
        status, _, err = run(capsys, "spark", "index", "t", "--catalog-options-file",
                             str(tmp_path / "nope"))
        assert status == 1
        assert_one_line_error(err, "catalog options file", "nope", "No such file")
