; Java definitions for the speky scanner (captures: see README.md).

; JUnit 4/5 (and TestNG) test annotations, simple or fully qualified.
((marker_annotation name: [(identifier) @_ann (scoped_identifier name: (identifier) @_ann)]) @test.attribute
 (#match? @_ann "^(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Theory)$"))
((annotation name: [(identifier) @_ann (scoped_identifier name: (identifier) @_ann)]) @test.attribute
 (#match? @_ann "^(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate|Theory)$"))

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field

; The superclass, for JUnit 3 (methods test* of a junit.framework.TestCase subclass).
(class_declaration
  superclass: (superclass [(type_identifier) @base
                           (scoped_type_identifier (type_identifier) @base .)
                           (generic_type (type_identifier) @base)])) @definition.class

; Enum constants: Kind.DISCOUNTED (methods of a constant's body are Kind.DISCOUNTED.apply).
(enum_body (enum_constant name: (identifier) @name) @definition.enum_member)
