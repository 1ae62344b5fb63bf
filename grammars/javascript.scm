; JavaScript-only definitions (see ecmascript.scm for the shared ones).

; Class fields holding a function: handler = () => {}
(field_definition
  property: (property_identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
