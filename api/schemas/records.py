"""Records as docs/record-format.md writes them, and the reports of an import."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields, validate

from api.schemas.common import ErrorBodySchema
from api.typed import described_dict
from domain.kernel.values import DealResult

# --- records (docs/record-format.md) ------------------------------------------------------------------


class RecordEnvelopeSchema(Schema):
    """What every `fupan.deal/1` document carries, played in full or result-only."""

    class Meta:
        unknown = INCLUDE

    format = fields.String(required=True, validate=validate.Equal("fupan.deal/1"))
    game = fields.String(required=True)
    options = fields.Dict()
    seats = fields.List(fields.Raw(), required=True)
    first = fields.Integer(required=True, strict=True)


class RecordSchema(RecordEnvelopeSchema):
    """A `fupan.deal/1` document; the record layer and the engine validate it completely."""

    hands = fields.List(fields.Raw(), required=True)
    kitty = fields.List(fields.Raw())
    context = fields.Dict()
    actions = fields.List(fields.Raw(), required=True)
    result = fields.Dict()
    meta = fields.Dict()
    annotations = fields.List(fields.Dict(), metadata={"description": "checked by the record layer "
                                                                      "(domain/records/annotations.py)"})
    digest = fields.String()


class ResultOnlyRecordSchema(RecordEnvelopeSchema):
    """A result-only `fupan.deal/1` document (a score slip's deal, docs/record-format.md "Result-only records"):
    no hands, kitty or actions; its slip scores its result."""

    context = fields.Dict()
    result_only = fields.Boolean(required=True, validate=validate.Equal(True))
    slip = fields.Dict(required=True)
    result = fields.Dict(required=True)
    meta = fields.Dict()
    digest = fields.String()


class ImportReportSchema(Schema):
    index = fields.Integer(required=True)
    ok = fields.Boolean(required=True)
    created = fields.Boolean()
    deal_id = fields.String()
    result = described_dict(DealResult, allow_none=True)
    error = fields.Nested(ErrorBodySchema)


class ImportReportsSchema(Schema):
    ok = fields.Boolean(required=True, metadata={"description": "every record was stored"})
    records = fields.List(fields.Nested(ImportReportSchema), required=True)
