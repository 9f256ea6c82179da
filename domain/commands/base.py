"""What every command is made of: the base class, and the checked types of what a client
sends (ids, texts, bounded whole numbers, track and option values)."""


from typing import Annotated

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    StrictStr,
)

Id = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Text = Annotated[str, Field(max_length=2000)]
Short = Annotated[str, Field(min_length=1, max_length=64)]
Int = StrictInt  # JSON numbers only: no true/false or "3" taken for a number
MAX_INT = 2**31 - 1  # every number a request carries fits a 32-bit column
Count = Annotated[Int, Field(ge=1, le=1000)]
SAFE_INT = 2**53 - 1  # the largest whole number every JSON reader holds exactly


def _json_safe(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > SAFE_INT:
        raise ValueError(f"whole numbers lie within ±{SAFE_INT}")
    return value


# A track's, option's or extra field's value: no NaN or infinity (JSON has neither), and no
# whole number a JSON reader would round (it would not even fit the store's encoder).
Value = Annotated[StrictInt | Annotated[StrictFloat, Field(allow_inf_nan=False)] | StrictStr,
                  BeforeValidator(_json_safe)]
Flags = Annotated[list[Short], Field(max_length=32)]


class Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

